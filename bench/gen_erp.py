"""Long SAP S/4HANA support sessions with planted facts, for the fidelity bench.

An SAP consultant at a textile manufacturer in Bursa works with an agent on the company's S/4HANA system:
ABAP reports and classes (syntax checks, ABAP Unit runs, ATC findings), ST22 short dumps with their sections,
SM37 night jobs and their logs, transport requests, IDocs stuck in status 51, SE16 table dumps, CDS views and
the e-Fatura link to the GİB portal. The user writes Turkish and English, often mixed, often curt, and pastes
mails, tickets, announcements, audit findings, job logs and Teams threads into the chat.

    from gen_erp import make_session
    session = make_session(seed=1, messages=400)     # about 550k characters
    session = make_session(seed=1, messages=3000)    # about 4.75M characters
    for fact in session.facts:
        print(fact.kind, fact.index, fact.value, "-", fact.query)

``session.messages`` is an OpenAI chat conversation: a system prompt, user turns, assistant turns with
``tool_calls`` (the tools in :data:`TOOLS`) each answered by a ``tool`` message, ending on an assistant answer
and a last user turn. ``session.facts`` are what a compacted context must keep, ``per_kind(messages)`` of each
kind in :data:`KINDS`, between 3% and 88% of the session; ``session.pasted`` lists what the user pasted rather
than wrote. Same seed and size, same bytes.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

from sessiongen import Fact, Message, Session, text_of

__all__ = ["KINDS", "MIN_MESSAGES", "TOOLS", "Fact", "Message", "Session", "make_session", "per_kind", "text_of"]

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = (
    "abap_run",
    "se16_read",
    "st22_dump",
    "sm37_log",
    "read_source",
    "edit_source",
    "transport",
    "idoc_status",
    "efatura_status",
)
MIN_MESSAGES = 60
AFTER = 8  # messages after a fact that may repeat its value

SYSTEM = (
    "You are an SAP S/4HANA assistant working for the SAP team of a textile manufacturer in Bursa (system S4P, "
    "client 100; development S4D client 110; quality S4Q client 200). You can run ABAP checks and reports "
    "(abap_run), read tables (se16_read), read short dumps (st22_dump), read batch job logs (sm37_log), read and "
    "edit repository objects (read_source, edit_source), manage transport requests (transport), inspect IDocs "
    "(idoc_status) and query the e-Fatura connector to the GİB portal (efatura_status). Explain what you find, "
    "keep a short todo list, never import to production on your own, and answer in the user's language."
)

# --- filler vocabulary (never used by a planted value) -------------------------------------------------------------
PROGRAMS = (
    "ZFI_R_OPEN_ITEMS",
    "ZFI_R_MONTH_END_CHECK",
    "ZSD_R_BILLING_DUE",
    "ZMM_R_STOCK_AGING",
    "ZPP_R_LOOM_OUTPUT",
    "ZFI_R_EINV_RESEND",
    "ZSD_R_EXPORT_DOCS",
    "ZMM_R_YARN_USAGE",
    "ZCO_R_DYE_COSTS",
    "ZFI_R_BANK_RECON",
)
CLASSES = (
    "ZCL_FI_CLOSE_CHECKS",
    "ZCL_SD_PRICING_HELPER",
    "ZCL_EINV_MAPPER",
    "ZCL_EINV_SENDER",
    "ZCL_MM_BATCH_UTIL",
    "ZCL_PP_LOOM_FEED",
    "ZCL_CO_DYE_ALLOC",
    "ZCL_FI_FX_REVAL",
)
METHODS = (
    "GET_OPEN_ITEMS",
    "MAP_HEADER",
    "BUILD_UBL",
    "SEND_ENVELOPE",
    "CALC_RATIO",
    "CHECK_PERIOD",
    "READ_STOCK",
    "POST_DOCUMENT",
    "CONVERT_AMOUNT",
    "VALIDATE_VKN",
    "SPLIT_LINES",
    "GET_RATE",
)
CDS = (
    "ZI_SalesOrderItemExt",
    "ZC_OpenDeliveries",
    "ZI_YarnStock",
    "ZC_EInvoiceMonitor",
    "ZI_LoomShiftOutput",
    "ZI_DyeBatchCost",
)
JOBS = (
    "ZFI_NIGHT_CLOSE_PREP",
    "ZEINV_SEND_BATCH",
    "ZSD_BILLING_RUN",
    "ZMM_MRP_NIGHT",
    "SAP_REORG_SPOOL",
    "ZPP_LOOM_SYNC",
    "ZFI_BANK_STMT_IMPORT",
    "ZEARSIV_REPORT_DAILY",
    "SAP_COLLECTOR_FOR_PERFMONITOR",
)
USERS = ("ECELIK", "MYILMAZ", "AKOC", "BATCH_FI", "RFC_EINV", "SDOGAN", "BASIS_ADM", "OKANB")
PEOPLE = ("Hülya Aksoy", "Emre Kılıç", "Murat Şen", "Selin Arslan", "Okan Bilgin", "Deniz Ateş", "Ayşe Demir")
MSGTYPES = (
    ("INVOIC", "INVOIC02"),
    ("ORDERS", "ORDERS05"),
    ("DESADV", "DELVRY07"),
    ("MATMAS", "MATMAS05"),
    ("DEBMAS", "DEBMAS07"),
    ("WMMBXY", "WMMBID02"),
)
PARTNERS = ("LSMARKS", "LSZARA01", "LSLCW", "LSDEFACTO", "LSKOTON", "LSBOYNER")
FILLER_VKN = ("3810045126", "6490312277", "1230558810", "4720019934", "9180067712", "2560081143")
FIORI = (
    "F0842 Manage Journal Entries",
    "F1597 Display Line Items",
    "F2217 Manage Billing Documents",
    "Z_EINV_MONITOR",
    "F1076 Stock - Multiple Materials",
    "F3240 Job Scheduling Status",
)
WERKS = ("1000", "1100", "1200", "2000")
FIELDS = ("LV_TOTAL", "LS_HEADER-WAERS", "LT_ITEMS", "LV_RATE", "LS_ITEM-MENGE", "LV_VKN", "LV_BELNR")
STATUS51 = (
    "Application document not posted",
    "Material {m} not maintained in plant {w} (M3 305)",
    "Customer {c} is blocked for billing (VF 064)",
    "Pricing error: condition PR00 missing for item 000020 (VF 117)",
    "No batch input data for screen SAPMV45A 4001",
    "Posting period 011 2024 is not open (F5 201)",
)
DUMPS = (
    ("COMPUTE_INT_ZERODIVIDE", "CX_SY_ZERODIVIDE", "Division by 0 (type I or P)"),
    ("CONVT_NO_NUMBER", "CX_SY_CONVERSION_NO_NUMBER", 'Unable to interpret "12,5 KG" as a number.'),
    ("ITAB_DUPLICATE_KEY", "CX_SY_ITAB_DUPLICATE_KEY", "A row with the same key already exists."),
    ("DBSQL_DUPLICATE_KEY_ERROR", "CX_SY_OPEN_SQL_DB", "Duplicate key on database table ZEINV_LOG"),
    ("OBJECTS_OBJREF_NOT_ASSIGNED", "CX_SY_REF_IS_INITIAL", "Access via 'NULL' object reference not possible."),
    ("TSV_TNEW_PAGE_ALLOC_FAILED", "", "No more memory available to add rows to an internal table."),
    ("TIME_OUT", "", "Time limit exceeded."),
    ("MESSAGE_TYPE_X", "", "The current application triggered a termination with a short dump."),
)


def _pick(rng: Random, seq: Any) -> Any:
    """``rng.choice``, faster (the sessions draw a few hundred thousand times)."""
    return seq[int(rng.random() * len(seq))]


def _ri(rng: Random, a: int, b: int) -> int:
    """``rng.randint``, faster."""
    return a + int(rng.random() * (b - a + 1))


def _date(rng: Random) -> str:
    return f"{_ri(rng, 1, 29):02d}.11.2024"


def _clock(rng: Random, seconds: bool = True) -> str:
    h, m = _ri(rng, 0, 23), _ri(rng, 0, 59)
    return f"{h:02d}:{m:02d}:{_ri(rng, 0, 59):02d}" if seconds else f"{h:02d}:{m:02d}"


def _amount(rng: Random) -> str:
    raw = f"{_ri(rng, 100, 99_999_999) / 100:,.2f}"
    return raw.replace(",", "#").replace(".", ",").replace("#", ".")


def _hex(rng: Random, n: int) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


def _uuid(rng: Random) -> str:
    h = _hex(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:]}"


def _filler_tr(rng: Random) -> str:
    return f"DEVK9A0{_ri(rng, 100, 899)}"


def _filler_idoc(rng: Random) -> str:
    return f"00000000041{_ri(rng, 10000, 99999)}"


def _filler_doc(rng: Random) -> str:
    return f"{_pick(rng, ('19000', '49000', '14000'))}{_ri(rng, 10000, 99999)}"


def _fill(rng: Random, text: str) -> str:
    """Fill a filler template's placeholders from the filler vocabulary."""
    if "{" not in text:
        return text
    return text.format(
        prog=_pick(rng, PROGRAMS),
        cls=_pick(rng, CLASSES),
        meth=_pick(rng, METHODS),
        cds=_pick(rng, CDS),
        job=_pick(rng, JOBS),
        user=_pick(rng, USERS),
        who=_pick(rng, PEOPLE),
        tr=_filler_tr(rng),
        idoc=_filler_idoc(rng),
        doc=_filler_doc(rng),
        date=_date(rng),
        time=_clock(rng, False),
        app=_pick(rng, FIORI),
        werks=_pick(rng, WERKS),
        n=_ri(rng, 2, 60),
        big=_ri(rng, 120, 4800),
        line=_ri(rng, 40, 900),
        amount=_amount(rng),
        partner=_pick(rng, PARTNERS),
        port=_pick(rng, ("3300", "3301", "8000", "44300", "50013", "3600")),
        field=_pick(rng, FIELDS),
        tab=_pick(rng, ("BKPF", "ACDOCA", "VBRK", "EDIDC", "ZEINV_LOG", "MARD", "TBTCO")),
    )


# --- tool outputs -------------------------------------------------------------------------------------------------
TABLES: dict[str, tuple[tuple[str, int], ...]] = {
    "BKPF": (
        ("MANDT", 5),
        ("BUKRS", 5),
        ("BELNR", 10),
        ("GJAHR", 5),
        ("BLART", 5),
        ("BUDAT", 10),
        ("USNAM", 10),
        ("XBLNR", 16),
        ("WAERS", 5),
    ),
    "EDIDC": (
        ("DOCNUM", 16),
        ("STATUS", 6),
        ("MESTYP", 8),
        ("IDOCTP", 10),
        ("RCVPRN", 10),
        ("CREDAT", 10),
        ("CRETIM", 8),
    ),
    "TBTCO": (("JOBNAME", 30), ("JOBCOUNT", 8), ("SDLSTRTDT", 10), ("SDLSTRTTM", 9), ("STATUS", 6), ("SDLUNAME", 10)),
    "ZEINV_LOG": (("ETTN", 36), ("BELGE_NO", 16), ("DURUM", 10), ("GIB_KODU", 8), ("VKN", 10), ("ZAMAN", 19)),
    "MARD": (("MATNR", 18), ("WERKS", 5), ("LGORT", 5), ("LABST", 16), ("INSME", 12)),
    "VBRK": (("VBELN", 10), ("FKART", 5), ("FKDAT", 10), ("NETWR", 16), ("WAERK", 5), ("KUNRG", 10)),
    "ZEINV_CFG": (("PARAM", 20), ("VALUE", 52), ("CHANGED_BY", 10), ("CHANGED_ON", 10)),
    "T001B": (
        ("RRCTY", 5),
        ("BUKRS", 5),
        ("MKOAR", 5),
        ("BKONT", 10),
        ("FRYE1", 5),
        ("FRPE1", 5),
        ("TOYE1", 5),
        ("TOPE1", 5),
    ),
}


_CELLS: dict[str, Callable[[Random], str]] = {
    "MANDT": lambda rng: "100",
    "BUKRS": lambda rng: _pick(rng, ("1000", "2000")),
    "BELNR": lambda rng: _filler_doc(rng),
    "GJAHR": lambda rng: "2024",
    "BLART": lambda rng: _pick(rng, ("SA", "RV", "KR", "DR")),
    "BUDAT": lambda rng: _date(rng),
    "FKDAT": lambda rng: _date(rng),
    "CREDAT": lambda rng: _date(rng),
    "SDLSTRTDT": lambda rng: _date(rng),
    "USNAM": lambda rng: _pick(rng, USERS),
    "SDLUNAME": lambda rng: _pick(rng, USERS),
    "XBLNR": lambda rng: f"BTK2024{_ri(rng, 100000000, 999999999)}",
    "BELGE_NO": lambda rng: f"BTK2024{_ri(rng, 100000000, 999999999)}",
    "WAERS": lambda rng: _pick(rng, ("TRY", "TRY", "EUR", "USD")),
    "WAERK": lambda rng: _pick(rng, ("TRY", "EUR")),
    "DOCNUM": lambda rng: _filler_idoc(rng),
    "STATUS": lambda rng: _pick(rng, ("53", "53", "51", "64", "03", "F", "A")),
    "MESTYP": lambda rng: _pick(rng, MSGTYPES)[0],
    "IDOCTP": lambda rng: _pick(rng, MSGTYPES)[1],
    "RCVPRN": lambda rng: _pick(rng, PARTNERS),
    "CRETIM": lambda rng: _clock(rng),
    "SDLSTRTTM": lambda rng: _clock(rng),
    "JOBNAME": lambda rng: _pick(rng, JOBS),
    "JOBCOUNT": lambda rng: f"{_ri(rng, 10000000, 23595999)}",
    "ETTN": lambda rng: _uuid(rng),
    "DURUM": lambda rng: _pick(rng, ("KABUL", "GONDERILDI", "HATA", "RED", "BEKLIYOR")),
    "GIB_KODU": lambda rng: _pick(rng, ("1300", "1200", "1160", "1163", "1220")),
    "VKN": lambda rng: _pick(rng, FILLER_VKN),
    "ZAMAN": lambda rng: f"2024-11-{_ri(rng, 1, 29):02d} {_clock(rng)}",
    "MATNR": lambda rng: f"IP-{_pick(rng, ('PES', 'PAM', 'VIS', 'ELA'))}-{_ri(rng, 100, 999)}",
    "WERKS": lambda rng: _pick(rng, WERKS),
    "LGORT": lambda rng: _pick(rng, ("0001", "HM01", "MM02", "SV01")),
    "LABST": lambda rng: _amount(rng),
    "INSME": lambda rng: f"{_ri(rng, 0, 900)},000",
    "NETWR": lambda rng: _amount(rng),
    "VBELN": lambda rng: f"9{_ri(rng, 10000000, 99999999)}",
    "FKART": lambda rng: _pick(rng, ("F2", "ZF2", "S1", "G2")),
    "PARAM": lambda rng: _pick(rng, ("TIMEOUT", "RETRY_COUNT", "PACKSIZE", "LOGLEVEL", "ARCHIVE_DAYS", "ALIAS_MODE")),
    "VALUE": lambda rng: _pick(rng, ("30", "3", "200", "2", "365", "DEFAULTPK", "X", "")),
    "CHANGED_BY": lambda rng: _pick(rng, USERS),
    "CHANGED_ON": lambda rng: _date(rng),
    "KUNRG": lambda rng: f"{_ri(rng, 100000, 199999)}",
    "RRCTY": lambda rng: "0",
    "MKOAR": lambda rng: _pick(rng, "+ADKS"),
    "BKONT": lambda rng: _pick(rng, ("", "ZZZZZZZZZZ")),
    "FRYE1": lambda rng: "2024",
    "TOYE1": lambda rng: "2024",
    "FRPE1": lambda rng: f"{_ri(rng, 1, 11):03d}",
    "TOPE1": lambda rng: f"{_ri(rng, 10, 12):03d}",
}


def _cell(rng: Random, col: str) -> str:
    return _CELLS[col](rng)


def _se16(rng: Random, target: int, extra: list[str] | None = None, table: str | None = None) -> str:
    table = table or _pick(rng, tuple(TABLES))
    cols = TABLES[table]
    head = "|" + "|".join(f"{c:<{w}}" for c, w in cols) + "|"
    rule = "|" + "|".join("-" * w for _c, w in cols) + "|"
    out = [
        f"Data Browser: Table {table}   Select Entries   client 100",
        f"Run at {_date(rng)} {_clock(rng)}  max. hits 500   user {_pick(rng, USERS)}",
        "",
        head,
        rule,
    ]
    size = sum(len(x) for x in out)
    rows = 0
    while size < target:
        row = "|" + "|".join(f"{_cell(rng, c)[:w]:<{w}}" for c, w in cols) + "|"
        out.append(row)
        size += len(row) + 1
        rows += 1
    if extra:
        pos = _ri(rng, 5, len(out))
        out[pos:pos] = extra
    out += [rule, f"{rows} entries displayed ({_ri(rng, rows, rows * 9)} hits in table, runtime {_ri(rng, 3, 900)} ms)"]
    return "\n".join(out)


def _source_lines(rng: Random, obj: str, count: int, start: int) -> list[str]:
    snippets = (
        "    SELECT bukrs, belnr, gjahr, budat FROM bkpf INTO TABLE @DATA(lt_bkpf)",
        "      WHERE bukrs = @iv_bukrs AND budat IN @it_budat.",
        "    LOOP AT lt_items ASSIGNING FIELD-SYMBOL(<ls_item>).",
        "      <ls_item>-netwr = <ls_item>-menge * <ls_item>-netpr.",
        "    ENDLOOP.",
        "    IF sy-subrc <> 0.",
        "      RAISE EXCEPTION TYPE zcx_einv_error EXPORTING textid = zcx_einv_error=>not_found.",
        "    ENDIF.",
        "    lv_rate = COND #( WHEN lv_total > 0 THEN lv_part / lv_total ELSE 0 ).",
        "    CALL FUNCTION 'BAPI_ACC_DOCUMENT_POST'",
        "      EXPORTING documentheader = ls_header",
        "      TABLES accountgl = lt_gl currencyamount = lt_curr return = lt_return.",
        "    READ TABLE lt_return WITH KEY type = 'E' TRANSPORTING NO FIELDS.",
        '    " 14:05 cut-off from the finance team, see mail of 12.11.',
        "    DATA(lo_sender) = NEW zcl_einv_sender( iv_dest = 'EINV_GIB' ).",
        "    lo_sender->send_envelope( EXPORTING it_docs = lt_docs IMPORTING et_result = DATA(lt_res) ).",
        "    APPEND VALUE #( belnr = ls_doc-belnr durum = 'GONDERILDI' ) TO lt_log.",
        "    MODIFY zeinv_log FROM TABLE @lt_log.",
        "    COMMIT WORK AND WAIT.",
        "  METHOD get_open_items.",
        "  ENDMETHOD.",
        "    CHECK lines( lt_items ) > 0.",
        "    SORT lt_items BY matnr werks.",
        "    DELETE ADJACENT DUPLICATES FROM lt_items COMPARING matnr werks.",
        "    lv_json = /ui2/cl_json=>serialize( data = ls_payload pretty_name = abap_true ).",
        '    " TODO(okan): remove after kernel 793 PL 200',
        "    WRITE: / 'Sum', lv_total CURRENCY 'TRY'.",
    )
    return [f"{start + i:6d}  {_pick(rng, snippets)}" for i in range(count)]


def _read_source(rng: Random, target: int, obj: str) -> str:
    out = [
        f"* Object: {obj}   version: active   last changed by {_pick(rng, USERS)} on {_date(rng)} {_clock(rng)}",
        f"* Package: {_pick(rng, ('ZFI', 'ZSD', 'ZMM', 'ZEINV', 'ZPP'))}   Transport: {_filler_tr(rng)}",
        "",
    ]
    start = _ri(rng, 1, 600)
    count = max(8, target // 62)
    out += _source_lines(rng, obj, count, start)
    return "\n".join(out)


def _edit_result(rng: Random, obj: str, path: str | None = None) -> str:
    start = _ri(rng, 20, 700)
    lines = [
        f"Object {obj} saved and activated ({_pick(rng, ('no warnings', '1 warning', '2 warnings'))}).",
        f"Recorded in request {_filler_tr(rng)} (task {_filler_tr(rng)}), user {_pick(rng, USERS)}.",
        f"--- a/{path or obj.lower()}",
        f"+++ b/{path or obj.lower()}",
        f"@@ -{start},7 +{start},9 @@",
    ]
    body = _source_lines(rng, obj, 9, start)
    for i, line in enumerate(body):
        lines.append(("+" if i in (3, 4) else "-" if i == 5 else " ") + line[8:])
    return "\n".join(lines)


def _st22(
    rng: Random,
    target: int,
    extra: list[str] | None = None,
    dump: tuple[str, str, str] | None = None,
    prog: str | None = None,
    meth: str | None = None,
) -> str:
    err, exc, short = dump or _pick(rng, DUMPS)
    prog, meth = prog or _pick(rng, PROGRAMS + CLASSES), meth or _pick(rng, METHODS)
    line = _ri(rng, 40, 900)
    out = [
        f"Short dump {_date(rng)} {_clock(rng)}  host s4p-app0{_ri(rng, 1, 4)}  client 100  user {_pick(rng, USERS)}",
        "",
        "Category               ABAP Programming Error",
        f"Runtime Errors         {err}",
    ]
    if exc:
        out.append(f"Except.                {exc}")
    out += [
        f"ABAP Program           {prog}",
        f"Application Component  {_pick(rng, ('FI-GL', 'SD-BIL', 'CA-GTF-CSC-EDO', 'MM-IM'))}",
        f"Date and Time          {_date(rng)} {_clock(rng)}",
        "",
        "Short Text",
        f"    {short}",
        "",
        "What happened?",
        "    Error in the ABAP application program.",
        f'    The current ABAP program "{prog}" had to be terminated because it found a',
        "    statement that could not be executed.",
        "",
        "What can you do?",
        "    Note down which actions and inputs caused the error.",
        "    To process the problem further, contact your SAP system administrator.",
        "    Using transaction ST22 for ABAP dump analysis, you can view and manage",
        "    termination messages, in particular for long-term reference.",
        "",
        "Error analysis",
        f"    The exception {exc or err} was raised and was not caught in the procedure",
        f'    "{meth}" "(METHOD)", nor was it propagated by a RAISING clause.',
        "",
    ]
    if extra:
        out += extra + [""]
    out += [
        "How to correct the error",
        "    Probably the only way to eliminate the error is to correct the program.",
        f'    Search SAP Notes for "{err}" "{prog}" "{meth}".',
        "",
        "System environment",
        '    SAP Release..... "758"',
        f'    SAP Basis Level. "000{_ri(rng, 1, 3)}"',
        f'    Kernel release "793"   Patch level "{_pick(rng, (100, 150, 200, 210))}"',
        '    Database....... "HDB 2.00.076.00"',
        "",
        "User and Transaction",
        f'    Client.............. 100   User..... "{_pick(rng, USERS)}"',
        '    Language key........ "T"',
        f'    Transaction......... "{_pick(rng, ("SE38", "VF01", "SM37", "F110", "ZEINV"))}"',
        "",
        "Information on where terminated",
        f"    The termination occurred in line {line} of the source code of",
        f'    "{meth}" of program "{prog}".',
        "",
        "Source Code Extract",
        "",
    ]
    src = _source_lines(rng, prog, 14, line - 8)
    src[8] = ">>>>>" + src[8][5:]
    out += src + [
        "",
        "Active Calls/Events",
        "No. Ty.  Program  Include  Line",
        f"    3 METHOD {prog} {meth} {line}",
        f"    2 FORM   {_pick(rng, PROGRAMS)} MAIN {_ri(rng, 10, 200)}",
        f"    1 EVENT  {_pick(rng, PROGRAMS)} START-OF-SELECTION {_ri(rng, 10, 90)}",
        "",
        "Chosen variables",
    ]
    size = sum(len(x) + 1 for x in out)
    while size < target:
        var = (
            f"    {_pick(rng, FIELDS)}  {_pick(rng, ('0', '12,5 KG', 'TRY', '#####', 'X', ''))}"
            f"  {_ri(rng, 0, 9999):04d}{_ri(rng, 0, 9999):04d}  {_amount(rng)}"
        )
        out.append(var)
        size += len(var) + 1
    return "\n".join(out)


def _sm37(rng: Random, target: int, job: str | None = None, extra: list[str] | None = None, ok: bool = True) -> str:
    job = job or _pick(rng, JOBS)
    day, start = _date(rng), _ri(rng, 0, 4)
    out = [
        f"Job log overview for job {job} / {_ri(rng, 10000000, 23595999)}",
        f"Scheduled by {_pick(rng, USERS)}"
        f"   start {day} 0{start}:{_ri(rng, 0, 59):02d}   server s4p-app0{_ri(rng, 1, 4)}_S4P_00",
        "",
        "Date       Time     Message text                                                    Msg.class  No.  T",
    ]
    texts = (
        "Job started",
        "Step 001 started (program {prog}, variant NIGHT_{n}, user ID {user})",
        "{big} documents selected",
        "{n} IDocs passed to port EINV_GIB",
        "Spool request {big} created",
        "Commit after {big} records",
        "Log handle {hex} saved in application log ZEINV",
        "Document {doc} posted in company code 1000",
        "Lock on table ZEINV_LOG released",
        "No data found for selection",
        "Message output ZRD0 processed for {n} deliveries",
        "Batch {n}: elapsed time {big} ms",
        "Exchange rates M 24.11.2024 read",
        "Period 011/2024 checked: open",
    )
    t = start * 3600
    size = sum(len(x) + 1 for x in out)
    body: list[str] = []
    while size < target:
        t += _ri(rng, 1, 40)
        text = _fill(rng, _pick(rng, texts).replace("{hex}", _hex(rng, 12)))
        row = (
            f"{day} {t // 3600:02d}:{t // 60 % 60:02d}:{t % 60:02d} {text:<64}"
            f"{_pick(rng, ('00', 'BL', 'ZEINV', 'F5', 'VN')):<11}{_ri(rng, 0, 999):03d}  "
            f"{_pick(rng, 'SSSSSIW')}"
        )
        body.append(row)
        size += len(row) + 1
    if extra:
        body[_ri(rng, len(body) // 2, len(body)) : 0] = extra
    tail = f"{day} {t // 3600 + 1:02d}:0{_ri(rng, 0, 9)}:{_ri(rng, 10, 59)} " + (
        "Job finished" if ok else "Job cancelled after system exception ERROR_MESSAGE"
    )
    return "\n".join(out + body + [tail])


def _idoc_list(rng: Random, target: int, extra: list[str] | None = None) -> str:
    out = [
        f"IDoc list   created {_date(rng)} - {_date(rng)}   direction {_pick(rng, ('1 outbound', '2 inbound'))}",
        "",
        "IDoc number       Created     Time      Msg.type  Basic type  Partner     St  Status text",
        "-" * 110,
    ]
    size = sum(len(x) + 1 for x in out)
    while size < target:
        mt, bt = _pick(rng, MSGTYPES)
        st = _pick(rng, ("53", "53", "53", "51", "64", "03", "30", "12"))
        text = {
            "53": "Application document posted",
            "51": _fill(
                rng,
                _pick(rng, STATUS51)
                .replace("{m}", f"IP-PES-{_ri(rng, 100, 999)}")
                .replace("{w}", "{werks}")
                .replace("{c}", "{big}"),
            ),
            "64": "IDoc ready to be transferred to application",
            "03": "Data passed to port OK",
            "30": "IDoc ready for dispatch (ALE service)",
            "12": "Dispatch OK",
        }[st]
        row = (
            f"{_filler_idoc(rng)}  {_date(rng)}  {_clock(rng)}  {mt:<8}  {bt:<10}  "
            f"{_pick(rng, PARTNERS):<10}  {st}  {text}"
        )
        out.append(row)
        size += len(row) + 1
    if extra:
        out[_ri(rng, 4, len(out)) : 0] = extra
    out.append(f"{len(out) - 4} IDocs selected")
    return "\n".join(out)


def _idoc_detail(rng: Random, target: int, number: str, final: str, extra: list[str] | None = None) -> str:
    mt, bt = _pick(rng, MSGTYPES)
    out = [
        f"IDoc {number}   {mt} / {bt}   partner {_pick(rng, PARTNERS)}   port SAPS4P",
        "",
        "Status records:",
        "St  Date        Time      Text",
    ]
    for st, text in (
        ("50", "IDoc added"),
        ("64", "IDoc ready to be transferred to application"),
        ("62", "IDoc passed to application"),
    ):
        out.append(f"{st}  {_date(rng)}  {_clock(rng)}  {text}")
    out += extra or []
    out.append(final)
    out += ["", "Data records:"]
    segs = ("E1EDK01", "E1EDKA1", "E1EDK02", "E1EDP01", "E1EDP19", "E1EDP26", "E1EDS01", "E1EDKT1")
    size = sum(len(x) + 1 for x in out)
    n = 1
    while size < target:
        seg = _pick(rng, segs)
        row = (
            f"{n:06d}  {seg:<8}  {_pick(rng, ('BELNR', 'PARVW', 'QUALF', 'MENGE', 'BETRG', 'MATNR'))}="
            f"{_pick(rng, ('AG', 'RE', _amount(rng), 'IP-PAM-' + str(_ri(rng, 100, 999)), '001', 'TRY'))}"
            f"  HLEVEL={_ri(rng, 1, 3)}"
        )
        out.append(row)
        size += len(row) + 1
        n += 1
    return "\n".join(out)


def _transport(rng: Random, target: int, extra: list[str] | None = None) -> str:
    out = [
        f"Import queue S4Q   ({_ri(rng, 3, 40)} requests)   refreshed {_date(rng)} {_clock(rng)}",
        "",
        "Number      Owner       Project   Short text                                          RC  Imported",
    ]
    texts = (
        "FI: month-end check report {prog}",
        "e-Fatura: UBL mapping fix",
        "SD: billing due list layout",
        "MM: yarn usage CDS {cds}",
        "Basis: RFC dest EINV_GIB timeout",
        "PP: loom feed interface",
        "FI: bank statement import variant",
        "e-Arşiv daily report change",
        "CO: dye cost allocation",
    )
    size = sum(len(x) + 1 for x in out)
    while size < target:
        text = _fill(rng, _pick(rng, texts))
        row = (
            f"{_filler_tr(rng)}  {_pick(rng, USERS):<10}  {_pick(rng, ('EINV', 'CLOSE', 'LOOM', '-')):<8}  "
            f"{text:<50}  {_pick(rng, ('0', '0', '4', '8', ' ')):>2}  {_date(rng)} {_clock(rng)}"
        )
        out.append(row)
        size += len(row) + 1
    if extra:
        out[_ri(rng, 3, len(out)) : 0] = extra
    out.append("Legend: RC 0 ok, 4 warnings, 8 errors, 12 cancelled")
    return "\n".join(out)


def _tr_log(rng: Random, request: str, lines: list[str], rc: int) -> str:
    steps = (
        "Check versions",
        "Import ABAP Dictionary objects",
        "Activate ABAP Dictionary",
        "Main import",
        "Import ADO",
        "Generation of programs and screens",
        "Execute XPRA",
    )
    out = [f"Transport log {request}  target S4Q/200  {_date(rng)} {_clock(rng)}", ""]
    for step in steps:
        out.append(f"  {step:<45} {_clock(rng)}  RC {_pick(rng, (0, 0, 0, 4))}")
        for _ in range(_ri(rng, 2, 6)):
            out.append(
                f"    {_pick(rng, ('Object', 'Table', 'Program'))} {_pick(rng, PROGRAMS + CLASSES + CDS)} "
                f"{_pick(rng, ('imported', 'activated', 'generated', 'unchanged'))}"
            )
    out[_ri(rng, 3, len(out)) : 0] = lines
    out.append(f"Import of {request} ended with return code {rc}")
    return "\n".join(out)


def _efatura(rng: Random, target: int, extra: list[str] | None = None) -> str:
    out = [f"e-Fatura connector  endpoint efatura.gib.gov.tr  query {_date(rng)} {_clock(rng)}", ""]
    size = 60
    while size < target:
        doc = {
            "ettn": _uuid(rng),
            "belgeNo": f"BTK2024{_ri(rng, 100000000, 999999999)}",
            "aliciVkn": _pick(rng, FILLER_VKN),
            "senaryo": _pick(rng, ("TEMELFATURA", "TICARIFATURA", "EARSIV")),
            "durum": _pick(rng, ("KABUL", "GONDERILDI", "ALINDI", "HATA")),
            "gibKodu": _pick(rng, (1300, 1200, 1160, 1220)),
            "tutar": _amount(rng),
            "doviz": "TRY",
            "zarfId": _uuid(rng),
            "zaman": f"2024-11-{_ri(rng, 1, 29):02d}T{_clock(rng)}+03:00",
        }
        row = json.dumps(doc, ensure_ascii=False)
        out.append(row)
        size += len(row) + 1
    if extra:
        out[_ri(rng, 2, len(out)) : 0] = extra
    out.append(f"{len(out) - 2} documents, {_ri(rng, 0, 5)} with errors")
    return "\n".join(out)


def _abap_unit(rng: Random, target: int, cls: str, extra: list[str] | None = None) -> str:
    out = [
        f"ABAP Unit: {cls}   risk level harmless   duration short",
        "",
        "Test class                 Method                          Result   Time(ms)",
    ]
    size = 90
    n = 0
    while size < target:
        row = (
            f"LTC_{_pick(rng, ('MAPPER', 'PERIOD', 'RATES', 'SPLIT', 'VKN', 'UBL')):<22} "
            f"{_pick(rng, ('TEST_', 'SHOULD_')) + _pick(rng, METHODS):<31} {'passed':<8} {_ri(rng, 1, 900):>6}"
        )
        out.append(row)
        size += len(row) + 1
        n += 1
    if extra:
        out[_ri(rng, 3, len(out)) : 0] = extra
    out += [
        "",
        f"Coverage: statements {_ri(rng, 40, 95)}.{_ri(rng, 0, 9)}%  branches {_ri(rng, 30, 90)}%",
        f"{n + len(extra or [])} tests, {len(extra or [])} failures",
    ]
    return "\n".join(out)


def _atc(rng: Random, target: int, extra: list[str] | None = None) -> str:
    out = [
        f"ATC run {_date(rng)} {_clock(rng)}  variant DEFAULT  object set {_pick(rng, ('ZFI', 'ZEINV', 'ZSD'))}",
        "",
        "Prio  Object                     Line  Check                              Message",
    ]
    checks = (
        ("Performance", "SELECT in loop"),
        ("Extended check", "Field not used"),
        ("Security", "Dynamic WHERE without escape"),
        ("Robust programming", "SY-SUBRC not checked"),
        ("Naming", "Local variable without LV_ prefix"),
        ("S/4HANA readiness", "Access to table BSEG"),
    )
    size = 90
    while size < target:
        check, msg = _pick(rng, checks)
        row = (
            f"{_pick(rng, (2, 3, 3, 3)):<5} {_pick(rng, PROGRAMS + CLASSES):<26} {_ri(rng, 10, 999):>4}  "
            f"{check:<34} {msg}"
        )
        out.append(row)
        size += len(row) + 1
    if extra:
        out[_ri(rng, 3, len(out)) : 0] = extra
    out.append(f"{len(out) - 3} findings (0 priority 1)" if not extra else f"{len(out) - 3} findings")
    return "\n".join(out)


def _report(rng: Random, target: int, extra: list[str] | None = None) -> str:
    prog = _pick(rng, PROGRAMS)
    out = [
        f"Program {prog}  executed in background-simulation  {_date(rng)} {_clock(rng)}",
        "",
        "| Company | Document   | Period | Customer | Amount           | Curr | Due date   | Note          |",
        "|---------|------------|--------|----------|------------------|------|------------|---------------|",
    ]
    size = 300
    while size < target:
        row = (
            f"| {_pick(rng, ('1000', '2000')):<7} | {_filler_doc(rng)} | 011    | {_ri(rng, 100000, 199999)}   "
            f"| {_amount(rng):>16} | {_pick(rng, ('TRY', 'EUR', 'USD'))}  | {_date(rng)} | "
            f"{_pick(rng, ('open', 'cleared', 'dunning 1', 'disputed', 'blocked')):<13} |"
        )
        out.append(row)
        size += len(row) + 1
    if extra:
        out[_ri(rng, 4, len(out)) : 0] = extra
    out.append(f"Total {_amount(rng)} TRY, runtime {_ri(rng, 1, 90)},{_ri(rng, 0, 9)} s")
    return "\n".join(out)


SYNTAX_WARNINGS = (
    "Variable LV_TMP is not used.",
    "The exception CX_SY_CONVERSION_ERROR is not caught.",
    "Use of obsolete statement MOVE.",
    "Field LS_ITEM is never read.",
)


def _syntax(rng: Random, obj: str, extra: list[str] | None = None) -> str:
    out = [f"Syntax check {obj}  (active version, {_ri(rng, 200, 3000)} lines)"]
    for _ in range(_ri(rng, 1, 4)):
        out.append(f"  Warning line {_ri(rng, 10, 999)}: {_pick(rng, SYNTAX_WARNINGS)}")
    out += extra or []
    out.append(f"{len(extra or [])} errors, {len(out) - 1 - len(extra or [])} warnings")
    return "\n".join(out)


# --- what gets planted --------------------------------------------------------------------------------------------
FACT_WORDS = (
    "BOYA",
    "IPLIK",
    "DOKUMA",
    "APRE",
    "KUMAS",
    "ORME",
    "BASKI",
    "TERBIYE",
    "ATKI",
    "COZGU",
    "DESEN",
    "KALITE",
    "SEVK",
    "HAMBEZ",
)
APPROVERS = ("Kerem Tunalı", "Gül Erbaş", "Nazlı Öztürk", "Tolga Sarp", "Berk Oyman", "Ece Saraçoğlu")
FACT_USERS = ("TKARACA", "NYUCEL", "BSAHINER", "GCINAR", "HOZKOK", "LBAYKAL", "RGUNAY", "VERTAN")


TOPICS = (
    "month-end close",
    "M&S invoices",
    "dye-house costs",
    "loom interface",
    "export documents",
    "bank statements",
    "e-Arşiv report",
    "yarn stock",
    "kernel weekend",
    "FX revaluation",
    "audit follow-up",
    "billing run",
    "Zara EDI",
    "credit notes",
    "scrap postings",
    "intercompany sales",
    "LC Waikiki orders",
    "fabric returns",
    "consignment stock",
    "asset year-end",
    "payment run",
    "customs declarations",
    "withholding tax",
    "batch classification",
    "quality lots",
    "Koton deliveries",
    "cost center plan",
    "dunning run",
    "energy cost allocation",
    "price conditions",
)


@dataclass
class _Ctx:
    """The state a session is built in."""

    rng: Random
    n: int
    messages: list[Message] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    pasted: list[tuple[int, str]] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    calls: int = 0
    queue: list[str] = field(default_factory=list)
    pastes_due: int = 0
    topics: list[str] = field(default_factory=list)
    seen: set[tuple[str, str]] = field(default_factory=set)
    filler_calls: list[tuple[int, int]] = field(default_factory=list)  # (assistant message, its tool message)
    chars: int = 0
    budget: int = 0

    @property
    def pos(self) -> int:
        return len(self.messages)

    def fresh(self, make: Callable[[], str]) -> str:
        """A value not overlapping any value drawn before (neither contains the other)."""
        while True:
            v = make()
            if not any(v in u or u in v for u in self.used) and not any(v in nm for nm in self.names):
                self.used.append(v)
                return v

    def name(self, make: Callable[[], str]) -> str:
        """An object name for planted episodes: new, and holding no value drawn before."""
        while True:
            nm = make()
            if nm not in self.names and not any(u in nm for u in self.used):
                self.names.append(nm)
                return nm

    def size(self) -> int:
        """How long the next tool output should be, so that the session lands near its character budget."""
        base = self.rng.triangular(1200, 6200, 2300)
        if self.chars and self.pos > 8:
            base *= min(6.0, max(0.4, self.budget * self.pos / self.n / self.chars) ** 2)
        return int(min(base, 22_000))

    def user(self, text: str) -> int:
        self.chars += len(text)
        self.messages.append({"role": "user", "content": text})
        return self.pos - 1

    def say(self, text: str) -> int:
        self.chars += len(text)
        self.messages.append({"role": "assistant", "content": text})
        return self.pos - 1

    def call(self, text: str, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
        made: list[dict[str, Any]] = []
        for name, args in calls:
            self.calls += 1
            made.append(
                {
                    "id": f"call_{self.calls:05d}{_hex(self.rng, 6)}",
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)},
                }
            )
        self.chars += len(text) + sum(len(m["function"]["arguments"]) + 1 for m in made)
        self.messages.append({"role": "assistant", "content": text, "tool_calls": made})
        return made

    def tool(self, call: dict[str, Any], content: str) -> int:
        self.chars += len(content)
        self.messages.append(
            {"role": "tool", "tool_call_id": call["id"], "name": call["function"]["name"], "content": content}
        )
        return self.pos - 1

    def about(self, key: str = "") -> str:
        """A topic of the work, drawn without repeats until all were used, and never twice for one ``key``."""
        while True:
            if not self.topics:
                self.topics = list(TOPICS)
                self.rng.shuffle(self.topics)
            topic = self.topics.pop()
            if (key, topic) not in self.seen:
                self.seen.add((key, topic))
                return topic

    def next_tool(self) -> str:
        if not self.queue:
            self.queue = list(TOOLS)
            self.rng.shuffle(self.queue)
        return self.queue.pop()


def _size(rng: Random) -> int:
    return int(rng.triangular(1200, 6200, 2300))


# --- filler -------------------------------------------------------------------------------------------------------
FILLER_ASKS = (
    "ST22'de bu gece dump var mı bak, özellikle {prog}.",
    "check SM37 for {job}, did it finish last night?",
    "{idoc} neden 51'de kaldı?",
    "can you read {cls} method {meth}, I want to see how it rounds",
    "transport kuyruğuna bak, {tr} S4Q'ya gitti mi",
    "run the unit tests of {cls}",
    "SE16'dan {tab} çek, son 2 günün kayıtları",
    "e-fatura tarafında bugün hata veren var mı?",
    "ATC'yi {cls} için koştur, prio 1 var mı bakalım",
    "ok",
    "go",
    "tamam devam",
    "devam et",
    "{who} aradı, {app} açılmıyormuş. önce job'lara bak sonra bana söyle",
    "bekle, önce {prog}'u syntax check et",
    "şu {cds} view'ın kaynağını göster",
    "how many IDocs are still in 51 for {partner}?",
    "pardon meeting'deydim. nerede kalmıştık?",
    "check the night run of {job} again, {who} says it was slow",
    "bi de {tab} tablosuna bak {werks} için",
    "hmm ok. and the dumps?",
    "run {prog} for period 011, test mode",
    "let's look at the import log of {tr}",
    "gece {job} {time}'da başlamış, normalde 02:00'de başlar. neden?",
    "efatura connector'da {n} belge bekliyor diyorlar, kontrol et",
    "{who} asks if port {port} is open from the plant",
)
FILLER_QA = (
    (
        "neden BAPI_TRANSACTION_COMMIT'i WAIT ile çağırıyoruz?",
        "In short: COMMIT WORK AND WAIT blocks until the update task is done, so the follow-up read sees the document; "
        "without WAIT you can race the V1 update.",
    ),
    (
        "what's the difference between status 51 and 64 again, for {who}'s slides",
        "51 means the application rejected the IDoc (posting failed); 64 means it is waiting to be passed to the "
        "application at all — usually a scheduling question (RBDAPP01), not a data problem.",
    ),
    (
        "CDS'te association mı join mi kullanmalıyız {cds} için?",
        "Associations are lazy: the join only happens if a consumer asks for the fields, which keeps the Fiori list "
        "fast. For a pure value help a join is fine.",
    ),
    (
        "is it safe to restart {job} during the day?",
        "Restarting is safe as long as the job is restartable at step level; this one writes ZEINV_LOG per envelope "
        "and commits every 200 records, so a rerun skips what is already sent.",
    ),
    (
        "bu {amount} TRY farkı nereden geliyor olabilir?",
        "Büyük ihtimalle yuvarlama: UBL toplamı satır bazında iki haneye yuvarlanıyor, FI ise yuvarlamadan toplayıp "
        "bir kez yuvarlıyor.",
    ),
    (
        "GİB 1200 kodu ne demekti?",
        "Kısaca: GİB zarfı aldı ama alıcı sistemden yanıt dönmedi; bu bizim tarafta bir hata değil, beklemek yeterli.",
    ),
    (
        "kısa özet geç, {who}'ya yazacağım",
        "Özet: gece job'ları bitti, ST22'de yeni dump yok, e-fatura kuyruğunda birkaç belge GİB yanıtı bekliyor. "
        "Açık konu olarak 51'deki IDoc'lar duruyor.",
    ),
)
TODOS = (
    "Todo list:\n- [x] ST22 night dumps reviewed\n- [x] {job} log checked\n- [ ] {idoc} reprocess after master data fix"
    "\n- [ ] ATC on {cls}\n- [ ] answer {who} about {app}",
    "Güncel liste:\n- [x] {tr} S4Q import kontrol\n- [ ] {prog} unit test\n- [ ] e-fatura bekleyenler ({n} adet)"
    "\n- [ ] {cds} review",
    "Open items (as of {time}):\n1. {job} slow night run — waiting for Basis\n2. {n} IDocs in 51 for {partner}\n"
    "3. {cls}.clas.abap:{line} rounding question",
)
STEP_NOTES = {
    "abap_run": ("Running it.", "Koşturuyorum.", "Let me run the check."),
    "se16_read": ("Bir de tabloya bakayım.", "Reading the table.", "SE16 first."),
    "st22_dump": ("Next, the dump itself.", "ST22'ye bakıyorum.", "Checking the short dumps."),
    "sm37_log": ("Let me look at the job log first.", "Önce job log'a bakıyorum.", "SM37, last run."),
    "read_source": ("Reading the source around that line.", "Kaynağı açıyorum.", ""),
    "edit_source": ("Making the change.", "Değiştiriyorum.", "Small edit, then activate."),
    "transport": ("Checking the import queue.", "Transport tarafına bakayım.", ""),
    "idoc_status": ("Looking at the IDocs.", "IDoc'lara bakıyorum.", ""),
    "efatura_status": ("Asking the e-Fatura connector.", "Connector'a soruyorum.", ""),
}


def _tool_call(ctx: _Ctx, name: str) -> tuple[str, dict[str, Any], Callable[[], str]]:
    args, produce = _tool_args(ctx, name)
    return name, args, produce


def _tool_args(ctx: _Ctx, name: str) -> tuple[dict[str, Any], Callable[[], str]]:
    rng = ctx.rng
    target = ctx.size()
    if name == "abap_run":
        action = _pick(rng, ("unit", "atc", "syntax", "report", "report"))
        obj = _pick(rng, CLASSES if action in ("unit", "atc") else PROGRAMS)
        args: dict[str, Any] = {"action": action, "object": obj, "client": _pick(rng, (110, 200))}
        if action == "unit":
            return args, lambda: _abap_unit(rng, target, obj)
        if action == "atc":
            return args, lambda: _atc(rng, target)
        if action == "syntax":
            return args, lambda: _syntax(rng, obj) + "\n" + _read_source(rng, target, obj)
        return args, lambda: _report(rng, target)
    if name == "se16_read":
        table = _pick(rng, tuple(TABLES))
        return {"table": table, "max_rows": 500}, lambda: _se16(rng, target, table=table)
    if name == "st22_dump":
        return {"date": _date(rng), "user": _pick(rng, USERS + ("*",))}, lambda: _st22(rng, target)
    if name == "sm37_log":
        job = _pick(rng, JOBS)
        return {"job": job, "status": _pick(rng, ("finished", "cancelled", "any"))}, lambda: _sm37(rng, target, job)
    if name == "read_source":
        obj = _pick(rng, CLASSES + PROGRAMS)
        return {"object": obj, "from_line": _ri(rng, 1, 400)}, lambda: _read_source(rng, target, obj)
    if name == "edit_source":
        obj = _pick(rng, CLASSES + PROGRAMS)
        path = f"src/{obj[:3].lower()}/{obj.lower()}.{'clas' if obj.startswith('ZCL') else 'prog'}.abap"
        return (
            {
                "path": path,
                "object": obj,
                "change": _pick(rng, ("guard division by zero", "fix rounding", "add WAIT to commit", "log VKN")),
            },
            lambda: _edit_result(rng, obj, path) + "\n" + _read_source(rng, target // 2, obj),
        )
    if name == "transport":
        return {"action": _pick(rng, ("queue", "queue", "log")), "system": "S4Q"}, lambda: _transport(rng, target)
    if name == "idoc_status":
        if rng.random() < 0.5:
            number = _filler_idoc(rng)
            return {"idoc": number}, lambda: _idoc_detail(
                rng, target, number, f"53  {_date(rng)}  {_clock(rng)}  Application document posted"
            )
        return {"status": _pick(rng, ("51", "any")), "days": _ri(rng, 1, 7)}, lambda: _idoc_list(rng, target)
    return {"query": _pick(rng, ("today", "errors", "pending"))}, lambda: _efatura(rng, target)


ASKS = {
    "abap_run": (
        "run the unit tests of {cls}",
        "ATC'yi {cls} için koştur, prio 1 var mı bakalım",
        "bekle, önce {prog}'u syntax check et",
        "run {prog} for period 011, test mode",
    ),
    "se16_read": (
        "SE16'dan {tab} çek, son 2 günün kayıtları",
        "bi de {tab} tablosuna bak {werks} için",
        "what's in {tab} for company code 1000 today?",
    ),
    "st22_dump": (
        "ST22'de bu gece dump var mı bak, özellikle {prog}.",
        "hmm ok. and the dumps?",
        "{who} says {app} dumped at {time}, check ST22",
    ),
    "sm37_log": (
        "check SM37 for {job}, did it finish last night?",
        "gece {job} {time}'da başlamış, normalde 02:00'de başlar. neden?",
        "check the night run of {job} again, {who} says it was slow",
    ),
    "read_source": (
        "can you read {cls} method {meth}, I want to see how it rounds",
        "şu {cds} view'ın kaynağını göster",
        "{prog} satır {line} civarını göster",
    ),
    "edit_source": (
        "ok, add the zero check in {cls} and activate",
        "{prog}'daki log satırını düzelt",
        "go, fix the rounding in {cls}",
    ),
    "transport": (
        "transport kuyruğuna bak, {tr} S4Q'ya gitti mi",
        "let's look at the import log of {tr}",
        "{who} asks whether {tr} is in QAS yet",
    ),
    "idoc_status": (
        "{idoc} neden 51'de kaldı?",
        "how many IDocs are still in 51 for {partner}?",
        "{partner} IDoc'larına bak, dünden beri bekleyen var mı",
    ),
    "efatura_status": (
        "e-fatura tarafında bugün hata veren var mı?",
        "efatura connector'da {n} belge bekliyor diyorlar, kontrol et",
        "{who} asks if port {port} to the integrator is reachable, and what's pending",
    ),
}
SUMS = {
    "abap_run": (
        "Unit tests: {n} passed, none failed. Coverage of {cls} is still low around the rounding logic "
        "({cls}.clas.abap:{line}).",
        "ATC clean apart from priority 3 findings ({n} of them, mostly naming). Nothing that blocks the release.",
        "Ran it. Runtime {n} s; the list has {big} lines and the totals match what {who} sent, as far as I can see.",
    ),
    "se16_read": (
        "The table shows {big} entries; {n} of them look odd (status 51 or empty fields), all for partner {partner}.",
        "Tabloda {big} kayıt var, {n} tanesi bugünden. Alanlarda beklenmedik bir şey yok.",
    ),
    "st22_dump": (
        "Short version: nothing new in ST22 since {time}. The {n} dumps in the list are all the known "
        "CONVT_NO_NUMBER from the plant upload.",
        "One new dump, at {prog} line {line}; same pattern as "
        "last week, the input has a unit in the quantity field ('12,5 KG').",
    ),
    "sm37_log": (
        "Done — {job} finished. Runtime was {n} minutes, within the usual range for a Monday night.",
        "{job} {time}'da başlamış, {n} dakika sürmüş; log'da hata yok, sadece uyarılar.",
    ),
    "read_source": (
        "Here's the relevant part: the rounding happens per line in {meth}, around line {line} — "
        "that's where the {amount} TRY differences can come from.",
        "Kaynağa baktım: {meth} içinde sy-subrc kontrolü yok, satır {line}. Şimdilik sorun çıkarmıyor ama not ettim.",
    ),
    "edit_source": (
        "Changed and activated; it went into {tr}. The diff is small — two lines added, one removed.",
        "Düzelttim ve aktive ettim, {tr} içinde. Unit testleri sonra koşturayım mı?",
    ),
    "transport": (
        "Sonuç: {tr} S4Q'ya {date} {time}'da import edilmiş, RC 4. Uyarılar sadece {cls} için, kritik değil.",
        "Import log looks fine: {n} objects, RC 0. {tr} is in S4Q now; tell me when {who} has tested.",
    ),
    "idoc_status": (
        "{n} IDocs are in 51, all with the same message (M3 305). I'd reprocess them after the master "
        "data fix, not before.",
        "I see two options: (a) reprocess with BD87 now, or (b) wait for the "
        "material master fix from {who} and run the job at {time}. I'd go with (b).",
    ),
    "efatura_status": (
        "Baktım: e-fatura tarafında {n} belge GONDERILDI'de bekliyor, GİB kodu 1200. Bunlar genelde 30 "
        "dk içinde KABUL'e döner, {time}'da tekrar bakabilirim.",
        "{n} documents today, {big} TRY in total; the only errors are the known 1160s for one receiver alias.",
    ),
}


def _filler_user(ctx: _Ctx, tool: str) -> None:
    rng = ctx.rng
    if ctx.pastes_due <= 0 and ctx.pos > 3:
        ctx.pastes_due = _ri(rng, 30, 70)
        intro, paste, outro = _paste(rng)
        text = f"{intro}\n\n{paste}\n\n{outro}"
        i = ctx.user(text)
        ctx.pasted.append((i, paste))
        return
    ctx.user(_fill(rng, _pick(rng, ASKS[tool] if rng.random() < 0.8 else FILLER_ASKS)))


def _filler_turn(ctx: _Ctx, size: int) -> None:
    rng = ctx.rng
    start = ctx.pos
    ctx.pastes_due -= size
    if size == 1:
        ctx.say(_fill(rng, _pick(rng, TODOS)))
    elif size == 2:
        question, answer = _pick(rng, FILLER_QA)
        ctx.user(_fill(rng, question))
        ctx.say(_fill(rng, answer))
    else:
        rest = size - 1
        lead = ctx.next_tool()
        if size >= 4:
            _filler_user(ctx, lead)
            rest -= 1
        while rest > 0:
            c = min(rest - 1, _pick(rng, (1, 1, 2, 2, 3, 3, 4)))
            if rest - 1 - c == 1:
                c += 1
            names = [lead] + [ctx.next_tool() for _ in range(c - 1)]
            lead = ctx.next_tool()
            calls = [_tool_call(ctx, name) for name in names]
            made = ctx.call(
                _pick(rng, STEP_NOTES[names[0]]) + (" Checking a couple of things in parallel." if c > 2 else ""),
                [(name, args) for name, args, _f in calls],
            )
            asked = ctx.pos - 1
            for call, (_n, _a, produce) in zip(made, calls):
                ctx.filler_calls.append((asked, ctx.tool(call, produce())))
            rest -= 1 + c
        ctx.say(
            _fill(rng, _pick(rng, SUMS[names[0]]))
            + ("\n\n" + _fill(rng, _pick(rng, TODOS)) if rng.random() < 0.2 else "")
        )
    assert ctx.pos - start == size


def _gap(ctx: _Ctx, size: int) -> None:
    """Fill ``size`` messages with ordinary work, each turn ending on an answer without calls."""
    rng = ctx.rng
    if ctx.pos == 1 and size > 0:  # the first turn is the user's
        s = 2 if size == 3 else size if size <= 9 else _ri(rng, 4, 8)
        if size - s == 1 and size > 9:
            s += 1
        _filler_turn(ctx, s)
        size -= s
    while size > 0:
        if size <= 11:
            s = size
        else:
            s = _pick(rng, (2, 3, 5, 6, 6, 7, 8, 9, 10, 11))
            if size - s == 1:
                s += 1
        _filler_turn(ctx, s)
        size -= s


# --- pasted documents ---------------------------------------------------------------------------------------------
def _paste(rng: Random) -> tuple[str, str, str]:
    kind = rng.randrange(6)
    who = _pick(rng, PEOPLE)
    d, t = _date(rng), _clock(rng, False)
    if kind == 0:
        paste = (
            f"From: Hülya Aksoy <hulya.aksoy@bursatekstil.com.tr>\nSent: {d} {t}\nSubject: Kasım ay sonu "
            f"kapanış takvimi\n\nMerhaba arkadaşlar,\n\nKasım kapanışı için takvim aşağıda. Please make sure all "
            f"billing documents up to {d} are released to accounting by WD2 12:00.\n- Do not post to period 011 "
            f"after WD3 18:00 without my written approval.\n- Kur farkı değerlemesi (FX reval) WD2 akşamı "
            f"{_pick(rng, JOBS)} ile çalışacak.\n- Lütfen e-fatura kuyruğunda HATA durumunda belge bırakmayın; "
            f"kalan {_ri(rng, 3, 40)} belge için {who} ile konuşun.\n- Open items above {_amount(rng)} TRY "
            f"need a comment in the close cockpit.\n\nTeşekkürler,\nHülya"
        )
        return (
            _pick(rng, ("Hülya Hanım'ın maili geldi:", "fyi, mail from finance:")),
            paste,
            _pick(rng, ("şimdilik sadece oku, sonra konuşuruz", "anything in there that hits our jobs?")),
        )
    if kind == 1:
        num = _ri(rng, 10000, 99999)
        paste = (
            f"Solution Manager  Incident {7000000000 + num}  Priority 2 - High\nReporter: Murat Şen (Plant "
            f"Demirtaş)\nComponent: PP-SFC / ZPP_LOOM_SYNC\nCreated: {d} {t}\n\nDescription:\nLoom output "
            f"for shift 3 is not arriving in S4P since {t}. Operators cannot confirm orders.\nPlease restart the "
            f"interface and call the plant back at ext. {_ri(rng, 2000, 2999)}.\nDo not cancel the open "
            f"production orders, they are needed for the {_ri(rng, 2, 9)}-day report.\n\nLast comment "
            f"({who}): checked RFC destination LOOM_MES, ping ok, {_ri(rng, 3, 30)} ms."
        )
        return (
            _pick(rng, ("plant'tan ticket:", "new SolMan ticket from Demirtaş, paste:")),
            paste,
            _pick(rng, ("bakar mısın", "what do you think")),
        )
    if kind == 2:
        paste = (
            f"GİB Duyuru – e-Fatura UBL-TR şematron güncellemesi ({d})\n\nDeğerli mükelleflerimiz,\n"
            f"UBL-TR 1.2 şematron kontrolleri {_ri(rng, 1, 28)} Aralık itibarıyla güncellenecektir. "
            f"Yeni kontrol kapsamında:\n1. IssueTime alanı zorunlu hale gelmektedir.\n2. Tevkifatlı faturalarda "
            f"WithholdingTaxTotal altında kod {_ri(rng, 601, 627)} kullanılmalıdır.\n3. Test ortamında "
            f"en az {_ri(rng, 5, 20)} başarılı senaryo gönderimi yapınız.\nLütfen entegratör ve ERP "
            "yazılımlarınızı bu tarihe kadar güncelleyiniz. Güncellenmeyen belgeler 1163 hata kodu ile "
            "reddedilecektir."
        )
        return (
            _pick(rng, ("GİB duyurusu, kopyaladım:", "this came from the integrator:")),
            paste,
            _pick(rng, ("bizi etkileyen ne var?", "does our mapper already fill IssueTime?")),
        )
    if kind == 3:
        paste = (
            f"Audit finding FY2024-{_ri(rng, 10, 99)} (Selin Arslan, external audit)\nArea: SAP "
            f"authorizations, client 100\nObservation: {_ri(rng, 3, 19)} dialog users hold SAP_ALL or "
            f"S_TABU_DIS with activity 02 on table group &NC&. {_ri(rng, 2, 8)} firefighter sessions in "
            f"November had no documented reason.\nRecommendation: Remove SAP_ALL from dialog users within 30 "
            f"days. Review firefighter logs weekly and document each session. Do not grant S_DEVELOP in "
            f"production.\nRisk rating: High"
        )
        return (
            _pick(rng, ("denetçinin bulgusu:", "auditor's finding, fyi:")),
            paste,
            _pick(rng, ("bunu Emre'ye de ilettim", "not for today, just keep it in mind")),
        )
    if kind == 4:
        job = _pick(rng, JOBS)
        lines = [
            f"{d} 0{_ri(rng, 1, 4)}:{_ri(rng, 10, 59)}:{_ri(rng, 10, 59)} {x}"
            for x in (
                "Job started",
                f"Step 001 started (program {_pick(rng, PROGRAMS)}, variant NIGHT_01, user ID BATCH_FI)",
                f"{_ri(rng, 100, 9000)} documents selected",
                "Please check the application log for details",
                f"Error in RFC destination EINV_GIB: timeout after {_ri(rng, 30, 300)} s",
                "Job cancelled",
            )
        ]
        paste = f"Job {job}, log from SM37:\n" + "\n".join(lines)
        return (
            _pick(rng, ("gece job patlamış, log:", "night run log:")),
            paste,
            _pick(rng, ("bugün ikinci kez", "again...")),
        )
    paste = (
        f"[{t}] Emre Kılıç: kernel upgrade S4P için {d} cumartesi 22:00-02:00 arası planlandı, 793 PL "
        f"{_pick(rng, (200, 210, 300))}\n[{t}] Emre Kılıç: Please stop all background jobs before 21:30, "
        f"especially {_pick(rng, JOBS)}.\n[{t}] Deniz Ateş: e-fatura job'ları da mı?\n[{t}] Emre Kılıç: evet, "
        f"hepsi. Do not release any transports that evening. SAPGUI {_pick(rng, ('8.00', '8.10'))} yeterli.\n"
        f"[{t}] Okan Bilgin: 👍 port 3300 ve 44300 aynı kalıyor değil mi?\n[{t}] Emre Kılıç: aynı."
    )
    return (
        _pick(rng, ("basis'in teams thread'i:", "from the Teams thread:")),
        paste,
        _pick(rng, ("not al", "just so you know")),
    )


# --- planted values -----------------------------------------------------------------------------------------------
def _w(rng: Random) -> str:
    return _pick(rng, FACT_WORDS)


def _nn(rng: Random) -> str:
    return f"{_ri(rng, 10, 99)}"


def _near(rng: Random, value: str) -> str:
    """A near miss: two neighbouring digits swapped (or one digit changed) near the end."""
    digits = [i for i, ch in enumerate(value) if ch.isdigit()]
    for i in reversed(digits[1:]):
        if i - 1 in digits and value[i] != value[i - 1] and rng.random() < 0.7:
            return value[: i - 1] + value[i] + value[i - 1] + value[i + 1 :]
    i = digits[-1] if digits else len(value) - 1
    return value[:i] + str((int(value[i]) + _ri(rng, 1, 8)) % 10) + value[i + 1 :]


RULES: tuple[tuple[Callable[[Random], str], str, tuple[str, ...]], ...] = (
    (
        lambda r: f"ZTX_{_w(r)}_{_nn(r)}",
        "Which package must nobody change without the weaving plant's sign-off?",
        (
            "bizde {v} paketine kimse dokunmaz, o paket dokumahanenin. değişiklik gerekiyorsa önce bana sor.",
            "house rule: nothing in package {v} gets changed unless the weaving plant signs off first.",
        ),
    ),
    (
        lambda r: f"CR-TX{_ri(r, 1000, 9999)}",
        "What change number must every transport description start with?",
        (
            "transport açıklamaları hep {v} ile başlasın, denetim bunu arıyor.",
            "we always start the transport description with {v} — the auditors grep for it.",
        ),
    ),
    (
        lambda r: f"{_ri(r, 3, 18) * 50} line items per call",
        "How many line items may one BAPI_ACC_DOCUMENT_POST call carry at most?",
        (
            "I'd rather we never go above {v} with BAPI_ACC_DOCUMENT_POST, beyond that the ACDOCA locks get ugly.",
            "BAPI_ACC_DOCUMENT_POST'a tek seferde en fazla {v}, fazlası olmasın — geçen sene kilitlenme yaşadık.",
        ),
    ),
    (
        lambda r: f"QAS client {_ri(r, 300, 399)}",
        "Where may tests run until the QAS refresh is finished?",
        (
            "until the QAS refresh is done, don't test anything outside {v}.",
            "refresh bitene kadar testleri sadece {v}'de yapıyoruz, başka yerde değil.",
        ),
    ),
    (
        lambda r: f"BTC_TX{_nn(r)}",
        "Which user must the night jobs be scheduled under?",
        (
            "asla kendi kullanıcınla job planlama; gece job'ları hep {v} altında koşar.",
            "we never schedule background jobs under a dialog user. always {v}.",
        ),
    ),
    (
        lambda r: f"{_ri(r, 18, 31)}.12.2024",
        "Until when is nothing imported into production (year-end freeze)?",
        (
            "until {v} nothing goes to PRD. year-end freeze, no exceptions.",
            "{v}'e kadar PRD'ye import yok, yıl sonu dondurması.",
        ),
    ),
    (
        lambda r: f"ZCL_TX{_pick(r, 'KMBDRS')}{_pick(r, 'ABEFGH')}_",
        "Which prefix do new ABAP classes get?",
        (
            "tercihim: yeni sınıflar {v} önekiyle açılsın, eski ZCL_FI_ gibi değil.",
            "new classes: I'd rather they start with {v}, not the old ZCL_FI_ style.",
        ),
    ),
    (
        lambda r: f"ATC variant ZTX_CHK_{_nn(r)}",
        "Which ATC check variant must be run before a release?",
        (
            "we don't release anything that hasn't passed {v} — the default variant doesn't count.",
            "release öncesi hep {v} ile ATC koşuyoruz, default variant sayılmaz.",
        ),
    ),
    (
        lambda r: f"urn:mail:txtestpk{_ri(r, 10, 999)}@bursatekstil.com.tr",
        "Which GİB alias should test invoices be sent to?",
        (
            "test faturaları hep {v} etiketine gitsin, gerçek müşteri etiketine asla.",
            "test invoices only ever go to {v}, never to a real customer's alias.",
        ),
    ),
    (
        lambda r: _pick(r, APPROVERS),
        "Whose OK does a transport need before it leaves QAS?",
        (
            "no transport leaves QAS without {v}'s OK. that's how we do it here.",
            "bizde hiçbir transport {v} onay vermeden QAS'tan çıkmaz.",
        ),
    ),
    (
        lambda r: f"TXRFC_{_w(r)}{_ri(r, 1, 9)}",
        "Which RFC destination must not be touched because it is Basis' business?",
        ("dokunma {v} destination'a, o Emre'nin işi.", "please leave the RFC destination {v} alone — Basis owns it."),
    ),
)
OPENINGS = (
    "günaydın. dün akşamki job'a baktım, bir sorun yok gibi.",
    "ok, back from lunch.",
    "one more thing before we continue.",
    "Hülya Hanım aradı, kapanış telaşı başladı.",
    "tamam bunu bitirdik sayılır.",
    "short note, then continue with the IDocs.",
)
ACKS = (
    "Noted: {v}. I'll keep to that.",
    "Anladım — {v}. Bundan sonra buna göre ilerliyorum.",
    "Got it. I'll treat {v} as a standing rule for the rest of the session.",
    "Tamam, not aldım ({v}).",
    "Understood. {v} — I'll check against it before each step.",
)


@dataclass
class _Episode:
    """Messages planted together: ``size`` of them, the planted message at ``offset``."""

    size: int
    offset: int
    emit: Callable[[_Ctx], None]


def _instruction(ctx: _Ctx, number: int, adopted: bool) -> _Episode:
    rng = ctx.rng
    make, query, phrasings = RULES[number % len(RULES)]
    if number >= len(RULES):
        query = f"{query[:-1]} (the later of the two such rules)?"
    value = ctx.fresh(lambda: make(rng))
    rule = _pick(rng, phrasings).format(v=value)

    def emit(c: _Ctx) -> None:
        if adopted:
            intro, paste, _outro = _paste(rng)
            while "Please" not in paste and "Do not" not in paste and "Lütfen" not in paste:
                intro, paste, _outro = _paste(rng)
            restate = _pick(
                rng,
                (
                    "Bundan bizim için çıkan kural, kendi cümlemle: ",
                    "my take for us, in plain words: ",
                    "yani bizde şöyle olacak: ",
                ),
            )
            i = c.user(f"{intro}\n\n{paste}\n\n{restate}{rule}")
            c.pasted.append((i, paste))
        else:
            form = rng.randrange(3)
            text = (
                rule
                if form == 0
                else f"{_pick(rng, OPENINGS)}\n\n{rule}"
                if form == 1
                else f"{_pick(rng, OPENINGS)}\n\n{rule}\n\n{_fill(rng, _pick(rng, FILLER_ASKS))}"
            )
            i = c.user(text)
        c.facts.append(Fact("instruction", value, i, query))
        c.say(_pick(rng, ACKS).format(v=value))

    return _Episode(2, 0, emit)


CORRECTIONS: tuple[tuple[Callable[[Random], str], bool, str, str, str, str], ...] = (
    # (make the stale value, near miss?, how the stale is said, noun en, noun tr, query)
    (
        lambda r: f"tx-s4-ap{_ri(r, 10, 99)}",
        True,
        "the dumps are coming from {s}, look at the app server there.",
        "server",
        "sunucu",
        "Which application server do the dumps come from?",
    ),
    (
        lambda r: f"INC-{_ri(r, 10000, 99999)}",
        True,
        "plant opened {s} for the loom output problem, keep it in the notes.",
        "ticket",
        "ticket",
        "Which SolMan ticket number covers the plant's loom output problem?",
    ),
    (
        lambda r: f"DEVK9B{_ri(r, 1000, 9999)}",
        True,
        "benim fix {s} içinde, ona bakarsın.",
        "transport",
        "transport",
        "Which transport request holds the user's fix?",
    ),
    (
        lambda r: f"00000000079{_ri(r, 10000, 99999)}",
        True,
        "the stuck one is IDoc {s}, the others went through.",
        "IDoc",
        "IDoc",
        "Which IDoc is the one that is stuck?",
    ),
    (
        lambda r: f"ZTX_{_w(r)}_GECE_{_ri(r, 1, 9)}",
        True,
        "gece patlayan job {s}, logu ondan al.",
        "job",
        "job",
        "Which night job is the one that failed?",
    ),
    (
        lambda r: _pick(r, FACT_USERS),
        False,
        "the postings are done by user {s}, check SU53 for them.",
        "user",
        "kullanıcı",
        "Which user does the postings?",
    ),
    (
        lambda r: f"±{_ri(r, 5, 95) * 10} TL",
        False,
        "kur farkı toleransı {s}, üstü kapanışta yorum ister.",
        "tolerance",
        "tolerans",
        "What is the FX difference tolerance before a comment is required?",
    ),
)
CORRECTION_FORMS = (
    "no wait, {v}.",
    "the other one — {v}.",
    "I gave you the wrong {en}, it's {v}.",
    "pardon, {v} olacak.",
    "yanlış söyledim: {s} değil {v}.",
    "aslında {tr} {v}, diğeri eski.",
    "sorry, {v}. not {s}.",
)


def _correction(ctx: _Ctx, number: int) -> tuple[_Episode, _Episode]:
    rng = ctx.rng
    near = number % 3 != 2
    pool = [c for c in CORRECTIONS if c[1] == near]
    seen = number - number // 3 - 1 if near else number // 3
    make, _n, said, en, tr, query = pool[seen % len(pool)]
    topic = ctx.about(query)
    query = f"{query[:-1]} ({topic})?"
    stale = ctx.fresh(lambda: make(rng))
    value = ctx.fresh(lambda: _near(rng, stale) if near else make(rng))
    holder: dict[str, int] = {}

    def emit_stale(c: _Ctx) -> None:
        holder["i"] = c.user(f"{topic}: " + _pick(rng, ("", "btw, ", "bu arada ")) + said.format(s=stale))
        c.say(_pick(rng, ("Ok — {s}, noted.", "Tamam, {s} üzerinden bakıyorum.", "Noted ({s}).")).format(s=stale))

    def emit(c: _Ctx) -> None:
        line = f"{topic} — " + _pick(rng, CORRECTION_FORMS).format(v=value, s=stale, en=en, tr=tr)
        if rng.random() < 0.4:
            line = f"{_fill(rng, _pick(rng, FILLER_ASKS))}\n\n{line}\n\n{_fill(rng, _pick(rng, FILLER_ASKS))}"
        i = c.user(line)
        c.facts.append(Fact("correction", value, i, query, stale=stale, stale_index=holder["i"]))
        c.say(
            _pick(
                rng, ("Right, {v} then — I'll drop {s} from my notes.", "Düzelttim: {v}.", "Ok, switching to {v}.")
            ).format(v=value, s=stale)
        )

    return _Episode(2, 0, emit_stale), _Episode(2, 0, emit)


DECISIONS: tuple[tuple[Callable[[Random], str], str, str], ...] = (
    (
        lambda r: f"RFC group PG_TX{_nn(r)}",
        "let's go with {v} for the parallel run of the close job.",
        "Which RFC server group was chosen for the parallel close run?",
    ),
    (
        lambda r: f"variant TX_{_w(r)}_{_nn(r)}",
        "tamam, gece job'u {v} ile koşsun.",
        "Which variant was chosen for the night job?",
    ),
    (
        lambda r: f"output type ZTX{_pick(r, 'ABCDEFGHKMNPRS')}",
        "çıktı tipi olarak {v} ile gidelim, eskisi kalsın arşivde.",
        "Which output type was chosen for the new invoice form?",
    ),
    (
        lambda r: f"{_ri(r, 3, 40)} parallel tasks",
        "ok let's do {v}, Basis said the app servers can take it.",
        "How many parallel tasks were chosen for the job?",
    ),
    (
        lambda r: f"ZI_Tx{_pick(r, ('Dye', 'Yarn', 'Loom', 'Fabric', 'Lot'))}Stock{_nn(r)}",
        "we go with {v} as the basis for the Fiori stock app, no extra join.",
        "Which CDS view was chosen as the basis of the stock app?",
    ),
    (
        lambda r: f"Fiori app ZTX_{_w(r)}_MON",
        "kararım: {v} — ayrı bir launchpad grubu açmıyoruz.",
        "Which Fiori app was chosen for the monitoring?",
    ),
)


def _decision(ctx: _Ctx, number: int, revise: bool) -> tuple[_Episode | None, _Episode]:
    rng = ctx.rng
    make, text, query = DECISIONS[number % len(DECISIONS)]
    topic = ctx.about(query)
    text, query = f"{topic}: {text}", f"{query[:-1]} ({topic})?"
    stale = ctx.fresh(lambda: make(rng)) if revise else None
    value = ctx.fresh(lambda: make(rng))
    holder: dict[str, int] = {}

    def emit_stale(c: _Ctx) -> None:
        holder["i"] = c.user(text.format(v=stale))
        c.say(_pick(rng, ("Ok, going with {v}.", "Tamam, {v}.")).format(v=stale))

    def emit(c: _Ctx) -> None:
        if stale is not None:
            line = _pick(
                rng,
                (
                    "changed my mind: {v} instead of {s}.",
                    "aslında {s} yerine {v} ile gidelim.",
                    "bekle, {s} olmaz. {v}.",
                ),
            )
            i = c.user(line.format(v=value, s=stale))
            c.facts.append(Fact("decision", value, i, query, stale=stale, stale_index=holder["i"]))
        else:
            i = c.user(_pick(rng, ("", "ok. ", "tamam, karar verdim. ")) + text.format(v=value))
            c.facts.append(Fact("decision", value, i, query))
        c.say(
            _pick(
                rng,
                (
                    "Going with {v}.",
                    "Tamam — {v}. Gerekirse geri dönebiliriz.",
                    "Ok, {v} it is. I'll note it in the todo list.",
                ),
            ).format(v=value)
        )

    return (_Episode(2, 0, emit_stale) if revise else None), _Episode(2, 0, emit)


PLANS: tuple[tuple[Callable[[Random], str], str, str], ...] = (
    (
        lambda r: f"rollback point RP-{_ri(r, 100, 999)}",
        "plan şöyle: önce gece job'larını durduruyoruz, sonra transportları S4Q'da bir kez daha test ediyoruz, en son "
        "PRD import. import öncesi {v} alınacak, Emre'ye söyle.",
        "What is taken before the production import?",
    ),
    (
        lambda r: f"pilot on sales org TX{_nn(r)}",
        "here's how I want to roll out the new e-invoice mapper: 1) {v} for one week, 2) compare the GİB responses "
        "with the old mapper, 3) then all sales orgs at once.",
        "Where does the new e-invoice mapper get piloted?",
    ),
    (
        lambda r: f"{_ri(r, 2, 40) * 25} IDocs per wave",
        "reprocess plan: first the master data fix in MM, then BD87 in waves of {v}, checking ST22 after each wave, "
        "and only then tell the plant.",
        "How big are the reprocessing waves for the stuck IDocs?",
    ),
    (
        lambda r: f"freeze window FW-{_nn(r)}",
        "kernel upgrade için plan: cuma akşamı job'ları hold'a alıyoruz, {v} boyunca transport yok, pazar sabahı smoke "
        "test, sonra job'ları geri açıyoruz.",
        "What is the name of the freeze window around the kernel upgrade?",
    ),
    (
        lambda r: (lambda d: f"cutover weekend {d}-{d + 1}.12")(_ri(r, 1, 27)),
        "the plan for the new close report: build in S4D this week, test with Hülya's team next week, go live on the "
        "{v}, old report stays read-only for a month.",
        "When does the new close report go live?",
    ),
    (
        lambda r: f"dry run in QAS-{_nn(r)}",
        "önce {v}, sonra sonuçları Hülya Hanım'la karşılaştırırız, fark yoksa PRD. farkta dururuz.",
        "Where is the dry run done before production?",
    ),
)


def _plan(ctx: _Ctx, number: int) -> _Episode:
    rng = ctx.rng
    make, text, query = PLANS[number % len(PLANS)]
    topic = ctx.about(query)
    value = ctx.fresh(lambda: make(rng))
    text, query = f"{topic} — {text}", f"{query[:-1]} ({topic})?"

    def emit(c: _Ctx) -> None:
        i = c.user(text.format(v=value))
        c.facts.append(Fact("plan", value, i, query))
        steps = [x.strip(" .") for x in re.split(r"[,:;]\s+|\d\)\s*|\bthen\b|\bsonra\b", text.format(v=value))]
        c.say(
            "Plan noted. As I understand it:\n"
            + "\n".join(f"- [ ] {x}" for x in steps if len(x) > 3)
            + "\nI'll tick these off as we go."
        )

    return _Episode(2, 0, emit)


@dataclass
class _Err:
    """One planted error: its line, the call that prints it, and the outputs with and without it."""

    tool: str
    args: dict[str, Any]
    line: str
    bad: Callable[[int], str]
    good: Callable[[int], str]
    query: str
    obj: str


def _error_spec(ctx: _Ctx, number: int) -> _Err:
    rng = ctx.rng
    kind = number % 8 if number < 8 else rng.randrange(8)
    w = _w(rng)
    if kind == 0:
        obj = ctx.name(lambda: f"ZTX_R_{_w(rng)}_{_nn(rng)}")
        field_ = f"LV_{_pick(rng, ('TUTAR', 'MIKTAR', 'KUR', 'ORAN'))}_{_pick(rng, ('NET', 'BRUT', 'KDV'))}"
        line = ctx.fresh(
            lambda: (
                f'{obj} Line {_ri(rng, 40, 990)}: Field "{field_}" is unknown. It is neither '
                'in one of the specified tables nor defined by a "DATA" statement.'
            )
        )
        return _Err(
            "abap_run",
            {"action": "syntax", "object": obj, "client": 110},
            line,
            lambda t: _syntax(rng, obj, [line]) + "\n" + _read_source(rng, t, obj),
            lambda t: _syntax(rng, obj) + "\n" + _read_source(rng, t, obj),
            f"What syntax error did the check report for the report on {w.lower()} figures?",
            obj,
        )
    if kind == 1:
        obj = ctx.name(lambda: f"ZCL_TX_{_w(rng)}_{_nn(rng)}")
        line = ctx.fresh(
            lambda: (
                f"Failure: LTC_KDV->TEST_ROUNDING in {obj}: expected <{_ri(rng, 10, 999)},"
                f"{_ri(rng, 10, 99)}> but was <{_ri(rng, 10, 999)},{_ri(rng, 10, 99)}>"
            )
        )
        return _Err(
            "abap_run",
            {"action": "unit", "object": obj, "client": 110},
            line,
            lambda t: _abap_unit(rng, t, obj, [line]),
            lambda t: _abap_unit(rng, t, obj),
            "Which ABAP Unit assertion failed in the VAT rounding test?",
            obj,
        )
    if kind == 2:
        obj = ctx.name(lambda: f"ZCL_TX_{_w(rng)}_{_nn(rng)}")
        meth = _pick(rng, METHODS)
        line = ctx.fresh(lambda: f"Termination point: {obj}=>{meth} line {_ri(rng, 40, 990)} (CX_SY_ZERODIVIDE)")
        return _Err(
            "st22_dump",
            {"date": _date(rng), "program": obj},
            line,
            lambda t: _st22(rng, t, [line], DUMPS[0], obj, meth),
            lambda t: (
                f"No short dumps for {obj} since {_date(rng)} {_clock(rng)}.\n\nOther dumps today:\n" + _st22(rng, t)
            ),
            "Where did the division-by-zero dump terminate?",
            obj,
        )
    if kind == 3:
        job = ctx.name(lambda: f"ZTX_{_w(rng)}_NIGHT_{_nn(rng)}")
        line = ctx.fresh(
            lambda: (
                f"{_date(rng)} 0{_ri(rng, 1, 5)}:{_ri(rng, 10, 59)}:{_ri(rng, 10, 59)} "
                f"Job {job} cancelled: BAPI_ACC_DOCUMENT_POST returned E F5 {_ri(rng, 100, 899)}"
            )
        )
        return _Err(
            "sm37_log",
            {"job": job, "status": "cancelled"},
            line,
            lambda t: _sm37(rng, t, job, [line], ok=False),
            lambda t: _sm37(rng, t, job),
            "Which log line says why the night posting job was cancelled?",
            job,
        )
    if kind == 4:
        number_ = ctx.name(lambda: f"00000000078{_ri(rng, 10000, 99999)}")
        line = ctx.fresh(
            lambda: (
                f"51  {_date(rng)}  {_clock(rng)}  Material TX-{_w(rng)}-{_ri(rng, 1000, 9999)} "
                f"not maintained in plant {_pick(rng, WERKS)} (M3 305)"
            )
        )
        return _Err(
            "idoc_status",
            {"idoc": number_},
            line,
            lambda t: _idoc_detail(rng, t, number_, line),
            lambda t: _idoc_detail(rng, t, number_, f"53  {_date(rng)}  {_clock(rng)}  Application document posted"),
            "What status message did the stuck inbound IDoc show?",
            number_,
        )
    if kind == 5:
        request = ctx.name(lambda: f"DEVK9C{_ri(rng, 1000, 9999)}")
        line = ctx.fresh(
            lambda: (
                f"E: Table ZTX_{_w(rng)}_T{_nn(rng)} could not be activated (field WAERS refers to "
                "unknown check table TCURCX)"
            )
        )
        return _Err(
            "transport",
            {"action": "log", "request": request, "system": "S4Q"},
            line,
            lambda t: _tr_log(rng, request, [line], 8) + "\n\n" + _transport(rng, t),
            lambda t: _tr_log(rng, request, [], 0) + "\n\n" + _transport(rng, t),
            "Which activation error broke the import into QAS?",
            request,
        )
    if kind == 6:
        line = ctx.fresh(
            lambda: (
                f"GIB-1163 UBL-TR şematron hatası: cbc:IssueTime eksik, belge TXE2024{_ri(rng, 100000000, 999999999)}"
            )
        )
        return _Err(
            "efatura_status",
            {"query": "errors"},
            line,
            lambda t: _efatura(rng, t, [line]),
            lambda t: _efatura(rng, t),
            "What did GİB reject the invoice with?",
            ctx.about("gib"),
        )
    obj = ctx.name(lambda: f"ZCL_TX_{_w(rng)}_{_nn(rng)}")
    line = ctx.fresh(
        lambda: (
            f"1     {obj}  {_ri(rng, 10, 999):>4}  Security  Dynamic WHERE clause built from "
            "user input (CL_CI_TEST_SQL_INJECTION)"
        )
    )
    return _Err(
        "abap_run",
        {"action": "atc", "object": obj, "client": 110},
        line,
        lambda t: _atc(rng, t, [line]),
        lambda t: _atc(rng, t),
        "Which priority-1 ATC finding blocks the release?",
        obj,
    )


def _error(ctx: _Ctx, number: int, resolve: bool) -> _Episode:
    rng = ctx.rng
    spec = _error_spec(ctx, number)
    ask = rng.random() < 0.5

    def emit(c: _Ctx) -> None:
        if ask:
            c.user(_pick(rng, ("şuna bir bak: ", "check this: ", "")) + f"{spec.obj} — {spec.tool} ile kontrol et")
        call = c.call(_pick(rng, ("Running it.", "Kontrol ediyorum.", "")), [(spec.tool, spec.args)])[0]
        i = c.tool(call, spec.bad(c.size()))
        c.facts.append(
            Fact("error", spec.line, i, f"{spec.query[:-1]} ({spec.obj})?", resolved=i + 6 if resolve else None)
        )
        c.say(
            f"It fails. The line that matters:\n\n    {spec.line}\n\n"
            + _pick(
                rng,
                (
                    "Bunu düzeltmeden ilerlemeyelim.",
                    "I can fix it, or we leave it for Okan — your call.",
                    "This is the one blocking the rest.",
                ),
            )
        )
        if resolve:
            c.user(_pick(rng, ("ok düzelt", "go ahead, fix it", "tamam, düzelt ve tekrar koştur")))
            edit = c.call(
                "Fixing and re-running.", [("edit_source", {"object": spec.obj, "change": "fix reported error"})]
            )[0]
            c.tool(edit, _edit_result(rng, spec.obj))
            again = c.call("", [(spec.tool, spec.args)])[0]
            c.tool(again, spec.good(c.size()))
            c.say(f"Clean now — the line `{spec.line}` is gone from the output.")

    return _Episode((9 if resolve else 3) + int(ask), 1 + int(ask), emit)


def _file(ctx: _Ctx, number: int) -> _Episode:
    rng = ctx.rng
    forms = (
        lambda w, n: f"src/ztx_{w}/zcl_tx_{w}_{n}.clas.abap",
        lambda w, n: f"src/ztx_{w}/zcl_tx_{w}_{n}.clas.testclasses.abap",
        lambda w, n: f"src/ztx_{w}/zi_tx{w}_{n}.ddls.asddls",
        lambda w, n: f"src/ztx_{w}/ztx_r_{w}_{n}.prog.abap",
        lambda w, n: f"src/ztx_{w}/zc_tx{w}_{n}.ddlx.asddlxs",
    )
    path = ctx.fresh(lambda: _pick(rng, forms)(_w(rng).lower(), _nn(rng)))
    ask = rng.random() < 0.5
    topic = ctx.about("file")

    def emit(c: _Ctx) -> None:
        if ask:
            c.user(_pick(rng, ("yaz şunu", "ok, write it", "go, create it", "tamam, oluştur")))
        call = c.call(
            f"{topic}: " + _pick(rng, ("writing the new object.", "oluşturuyorum.")),
            [
                (
                    "edit_source",
                    {"path": path, "create": True, "source": "\n".join(x[8:] for x in _source_lines(rng, path, 12, 1))},
                )
            ],
        )[0]
        kind = {
            "clas": "class",
            "testclasses": "test classes",
            "ddls": "CDS view",
            "prog": "report",
            "ddlx": "metadata extension",
        }[path.split(".")[1] if ".testclasses." not in path else "testclasses"]
        c.facts.append(
            Fact(
                "file",
                path,
                c.pos - 1,
                f"Which source file holds the new {kind} for the {path.split('/')[1][4:]} area ({topic})?",
            )
        )
        c.tool(call, _edit_result(rng, path.split("/")[-1].split(".")[0].upper(), path))
        c.say(f"Created {path} and activated it. Next I'd add it to the transport.")

    return _Episode(3 + ask, int(ask), emit)


IDS_SAID = (
    (
        lambda r: f"8000{_ri(r, 100000, 999999)}",
        "Solman'daki kayıt numarası {v}, oradan takip et.",
        "What is the Solution Manager record number the user gave?",
    ),
    (
        lambda r: _uuid(r),
        "customer says invoice with ETTN {v} never arrived, check it.",
        "Which ETTN does the customer say never arrived?",
    ),
    (
        lambda r: f"TXE2024{_ri(r, 100000000, 999999999)}",
        "müşteri {v} numaralı faturayı reddetmiş, neden?",
        "Which invoice number did the customer reject?",
    ),
    (
        lambda r: f"DEVK9B{_ri(r, 1000, 9999)}",
        "I opened {v} yesterday for the mapper fix, use that one.",
        "Which transport did the user open for the mapper fix?",
    ),
)


PRINTED: tuple[tuple[str, Callable[[Random], str], dict[str, Any], str], ...] = (
    (
        "transport",
        lambda r: f"DEVK9B{_ri(r, 1000, 9999)}",
        {"action": "create", "text": "e-Fatura mapper fix", "target": "S4Q"},
        "Which transport request was created for the mapper fix?",
    ),
    (
        "idoc_status",
        lambda r: f"00000000079{_ri(r, 10000, 99999)}",
        {"status": "51", "partner": "LSMARKS"},
        "Which IDoc for the big UK customer is blocked for billing?",
    ),
    ("efatura_status", _uuid, {"query": "rejected"}, "What is the ETTN of the invoice the receiver rejected?"),
    (
        "abap_run",
        lambda r: f"5100{_ri(r, 100000, 999999)}",
        {"action": "report", "object": "ZFI_R_MONTH_END_CHECK", "client": 200, "mode": "post"},
        "Which accounting document did the test posting create?",
    ),
)


def _printed(c: _Ctx, kind: int, value: str) -> str:
    """A tool output printing a planted identifier."""
    rng = c.rng
    if kind == 0:
        return (
            f"Request {value} created (workbench, owner {_pick(rng, USERS)})\nTask {_filler_tr(rng)} created\n\n"
            + _transport(rng, c.size())
        )
    if kind == 1:
        return _idoc_list(
            rng,
            c.size(),
            [
                f"{value}  {_date(rng)}  {_clock(rng)}  INVOIC    INVOIC02    LSMARKS     "
                "51  Customer blocked for billing (VF 064)"
            ],
        )
    if kind == 2:
        return _efatura(
            rng,
            c.size(),
            [
                json.dumps(
                    {"ettn": value, "durum": "RED", "gibKodu": 1220, "aciklama": "alıcı tarafından reddedildi"},
                    ensure_ascii=False,
                )
            ],
        )
    return (
        f"BAPI_ACC_DOCUMENT_POST: S RW 605 Document posted successfully: BKPFF {value}1000 2024\n"
        f"Accounting document {value} posted in company code 1000\n\n" + _report(rng, c.size())
    )


def _identifier(ctx: _Ctx, number: int) -> _Episode:
    rng = ctx.rng
    if number % 2 == 0:
        make, text, query = IDS_SAID[number // 2 % len(IDS_SAID)]
        value = ctx.fresh(lambda: make(rng))
        topic = ctx.about(query)
        text, query = f"{topic}: {text}", f"{query[:-1]} ({topic})?"

        def emit_said(c: _Ctx) -> None:
            i = c.user(text.format(v=value))
            c.facts.append(Fact("identifier", value, i, query))
            call = c.call("Looking it up.", [("efatura_status", {"query": value})])[0]
            c.tool(call, f"search '{value}': 1 hit\n" + _efatura(rng, c.size()))
            c.say(f"Found the record for {value}. " + _fill(rng, _pick(rng, SUMS["efatura_status"])))

        return _Episode(4, 0, emit_said)
    kind = number // 2 % 4
    tool, make, args, query = PRINTED[kind]
    value = ctx.fresh(lambda: make(rng))
    topic = ctx.about(query)
    query = f"{query[:-1]} ({topic})?"

    def emit_printed(c: _Ctx) -> None:
        call = c.call(f"{topic}: " + _pick(rng, ("checking.", "bakıyorum.", "one more look.")), [(tool, args)])[0]
        i = c.tool(call, _printed(c, kind, value))
        c.facts.append(Fact("identifier", value, i, query))
        c.say(f"The one to track is {value}. " + _fill(rng, _pick(rng, SUMS[tool])))

    return _Episode(3, 1, emit_printed)


def _finding(ctx: _Ctx, number: int) -> _Episode:
    rng = ctx.rng
    kind = number % 8 if number < 8 else rng.randrange(8)
    t = _size(rng)
    args: dict[str, Any]
    if kind == 0:
        v = ctx.fresh(
            lambda: f"https://efatura-{_w(rng).lower()}{_nn(rng)}.txtest.local:{_ri(rng, 8001, 8999)}/EFaturaWS"
        )
        tool, args = "se16_read", {"table": "ZEINV_CFG"}
        out = _se16(rng, t, [f"|ENDPOINT            |{v:<52}|{_pick(rng, USERS):<10}|{_date(rng)}|"], "ZEINV_CFG")
        q, meaning = "Which endpoint is the e-invoice connector configured with?", "it still points at a test host"
    elif kind == 1:
        v = ctx.fresh(lambda: f"{_ri(rng, 12, 950)} IDoc/min")
        tool, args = "sm37_log", {"job": "ZEINV_SEND_BATCH", "status": "finished"}
        out = _sm37(rng, t, "ZEINV_SEND_BATCH", [f"Throughput: {v} (avg over {_ri(rng, 3, 9)} steps)"])
        q, meaning = "What throughput did the e-invoice send job reach?", "that is the real bottleneck of the night"
    elif kind == 2:
        v = ctx.fresh(lambda: f"ZTX_{_w(rng)}_H{_nn(rng)}-WAERS is initial")
        tool, args = "st22_dump", {"date": _date(rng), "user": "BATCH_FI"}
        out = _st22(rng, t, [f"Root cause (analysis): {v}"], DUMPS[1])
        q, meaning = "What was the root cause of the conversion dump?", "the currency is missing in the header table"
    elif kind == 3:
        v = ctx.fresh(lambda: f"{_ri(rng, 2, 9000)} entries with WAERS = space")
        tool, args = "se16_read", {"table": "BKPF", "where": "WAERS = ' '"}
        out = _se16(rng, t, [f"Selection result: {v}"], "BKPF")
        q, meaning = "How many documents have no currency?", "those documents are why the FX revaluation skips lines"
    elif kind == 4:
        v = ctx.fresh(lambda: f"{_ri(rng, 10, 400) / 10:.1f} s in SELECT on ACDOCA")
        tool, args = "abap_run", {"action": "report", "object": "ZFI_R_OPEN_ITEMS", "trace": True}
        out = _report(rng, t, [f"SQL trace summary: {v}, {_ri(rng, 2, 90)} executions"])
        q, meaning = "How long does the open-items report spend in its ACDOCA select?", "the SELECT dominates"
    elif kind == 5:
        v = ctx.fresh(lambda: f"port SAPTX{_nn(rng)}")
        tool, args = "idoc_status", {"partner_profile": "LSZARA01", "direction": "outbound"}
        out = _idoc_list(rng, t, [f"Partner profile LSZARA01 outbound INVOIC: {v}, pack size 1, output immediately"])
        q, meaning = "Which port does the partner profile send invoices through?", "the profile uses the wrong port"
    elif kind == 6:
        v = ctx.fresh(lambda: f"S_TABU_NAM TABLE=ZTX_{_w(rng)}_{_nn(rng)}")
        tool, args = "abap_run", {"action": "su53", "user": "RFC_EINV"}
        out = (
            f"SU53 for user RFC_EINV  {_date(rng)} {_clock(rng)}\nMissing authorization: {v} ACTVT 02\n"
            "Authorizations checked in user master: Z_EINV_RFC, Z_BASIS_READ\n\n" + _report(rng, t)
        )
        q, meaning = "Which authorization is the RFC user missing?", "the role lacks table-level change rights"
    else:
        v = ctx.fresh(lambda: f"XSLT ZTX_UBL_{_w(rng)}_{_ri(rng, 1, 9)}")
        tool, args = "efatura_status", {"query": "config"}
        out = _efatura(rng, t, [f"mapping: {v} (active since {_date(rng)})"])
        q, meaning = "Which transformation does the connector use for the UBL mapping?", "an old mapping is active"
    ask = rng.random() < 0.4
    topic = ctx.about(q)

    def emit(c: _Ctx) -> None:
        if ask:
            c.user(f"{topic}: " + _pick(rng, ("neden böyle, bul bakalım", "find out why", "kök neden ne?")))
        call = c.call(
            f"{topic}: " + _pick(rng, ("let me check.", "bakıyorum.", "looking at the data.")), [(tool, args)]
        )[0]
        i = c.tool(call, out)
        c.facts.append(Fact("finding", v, i, f"{q[:-1]} ({topic})?"))
        c.say(
            f"Found it: {v}. In plain words, {meaning}. "
            + _pick(
                rng,
                (
                    "That explains what we saw in the night run.",
                    "Bu, gece gördüğümüz hatayı açıklıyor.",
                    "Want me to prepare the fix?",
                ),
            )
        )

    return _Episode(3 + int(ask), 1 + int(ask), emit)


# --- the session --------------------------------------------------------------------------------------------------
FINAL = (
    "tamam, yarın devam ederiz. nerede kaldığımızı kısaca yazar mısın?",
    "ok. what's left on the list?",
    "peki, Hülya Hanım'a ne diyeyim? kısa bir özet ver.",
    "let's stop here. summary for tomorrow please",
)


def per_kind(messages: int) -> int:
    """How many facts of each kind a session of ``messages`` plants: 1 at 60, 6 at 400, 12 at 3000, linear between
    (and on beyond 3000, six more every 3000 messages)."""
    if messages <= 400:
        x = 1 + 5 * (messages - 60) / 340
    elif messages <= 3000:
        x = 6 + 6 * (messages - 400) / 2600
    else:
        x = 12 + 6 * (messages - 3000) / 3000
    return max(1, math.floor(x + 0.5))


def _order(ctx: _Ctx, k: int) -> list[_Episode]:
    """The planted episodes in session order: the first two rules first, a stale value before what corrects it."""
    rng = ctx.rng
    adopted = {i for i in range(2, k) if i % 3 == 2}
    revise = set(rng.sample(range(k), max(1, k // 3)))
    resolve = set(rng.sample(range(k), k // 2))
    instructions = [_instruction(ctx, i, i in adopted) for i in range(k)]
    rest: list[tuple[str, Any]] = []
    for i in range(k):
        rest.append(("correction", _correction(ctx, i)))
        rest.append(("decision", _decision(ctx, i, i in revise)))
        rest.append(("plain", _error(ctx, i, i in resolve)))
        rest.append(("plain", _file(ctx, i)))
        rest.append(("plain", _identifier(ctx, i)))
        rest.append(("plain", _finding(ctx, i)))
        rest.append(("plain", _plan(ctx, i)))
    rest += [("plain", ep) for ep in instructions[2:]]
    rng.shuffle(rest)
    keyed: list[tuple[float, int, _Episode]] = [(float(i), 0, ep) for i, ep in enumerate(instructions[:2])]
    first = len(keyed)
    corrections = sorted(p for p, (kind, _e) in enumerate(rest, start=first) if kind == "correction")
    far = set(corrections[len(corrections) // 2 :])
    for p, (kind, item) in enumerate(rest, start=first):
        if kind == "plain":
            keyed.append((float(p), 0, item))
            continue
        stale, ep = item
        keyed.append((float(p), 0, ep))
        if stale is None:
            continue
        room = p - first
        if kind == "correction" and p in far:
            d = _ri(rng, min(room, 8), max(min(room, 8), min(room, 24)))
        else:
            d = _ri(rng, min(room, 1), min(room, 4 if kind == "correction" else 10))
        keyed.append((p - d - 0.5, len(keyed), stale))
    keyed.sort(key=lambda x: (x[0], x[1]))
    return [ep for _k, _t, ep in keyed]


def _use_every_tool(ctx: _Ctx) -> None:
    """Short sessions may leave a tool uncalled: then some ordinary call of a tool called often becomes a call of it."""
    calls = [(a, t, ctx.messages[t]["name"]) for a, t in ctx.filler_calls]
    count: dict[str, int] = {}
    for m in ctx.messages:
        for call in m.get("tool_calls") or []:
            count[call["function"]["name"]] = count.get(call["function"]["name"], 0) + 1
    for tool in TOOLS:
        if count.get(tool):
            continue
        for a, t, name in calls:
            if count[name] > 1 and ctx.messages[t]["name"] == name:
                args, produce = _tool_args(ctx, tool)
                call = next(c for c in ctx.messages[a]["tool_calls"] if c["id"] == ctx.messages[t]["tool_call_id"])
                call["function"] = {"name": tool, "arguments": json.dumps(args, ensure_ascii=False)}
                ctx.messages[t]["name"], ctx.messages[t]["content"] = tool, produce()
                count[name] -= 1
                count[tool] = 1
                break


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """An SAP support session of exactly ``messages`` messages (at least :data:`MIN_MESSAGES`) with
    ``per_kind(messages)`` planted facts of each kind."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"gen_erp makes sessions of {MIN_MESSAGES} messages or more, not {messages}")
    rng = Random(seed)
    ctx = _Ctx(rng, messages)
    ctx.pastes_due = _ri(rng, 8, 30)
    ctx.budget = 1600 * messages
    episodes = _order(ctx, per_kind(messages))
    lo, hi = max(3, math.ceil(0.03 * messages)), math.floor(0.88 * messages)
    total = sum(ep.size for ep in episodes)
    slack = hi - lo - total + 1
    if slack < 0:
        raise ValueError(f"{messages} messages are too few for the planted episodes")
    count = len(episodes)
    fractions = [0.0, rng.uniform(0, 0.02)] + [min(1.0, (i + rng.random()) / count) for i in range(2, count)]
    fractions = sorted(fractions[:count])
    ctx.messages.append({"role": "system", "content": SYSTEM})
    start = lo
    for ep, u in zip(episodes, fractions):
        at = start + math.floor(slack * u)
        _gap(ctx, at - ctx.pos)
        ep.emit(ctx)
        assert ctx.pos == at + ep.size, (ep, at, ctx.pos)
        start += ep.size
    _gap(ctx, messages - 1 - ctx.pos)
    ctx.user(_pick(rng, FINAL))
    _use_every_tool(ctx)
    ctx.facts.sort(key=lambda f: f.index)
    return Session(messages=ctx.messages, facts=ctx.facts, seed=seed, pasted=ctx.pasted)

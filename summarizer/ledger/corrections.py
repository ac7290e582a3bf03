"""Corrections: a user's correction supersedes the statement it corrects, and no words are rewritten.

A correction is a sentence of the user's own prose that takes something back ("Sorry, I meant
release/2014.3", "no wait, the bucket is the eu one: s3://acme-eu-logs"). It stays as the user said
it, first among the instructions. The statement it corrects leaves the ledger, and its citation
joins the correction's line (``[#12, #40]``): no stale value stands alone, and no sentence appears
that no one said.

Which statement a correction corrects is read from what the two share: a value of the same shape or
kind ("port 8080" and "7443"; two ``s3://`` buckets; two release branches), an old value the
correction names ("instead of 8080", "not 8080"), and the words around them ("bucket", "port",
"Jordan"). The latest statement that shares enough wins; a correction that shares too little with
everything before it supersedes nothing (a correction with a value of its own still stands; one
without is only a request).
"""

from __future__ import annotations

import bisect
import functools
import re
from collections import defaultdict

from .items import _FORBIDS, CORRECTION_RANK, HANDLE, NAME_WORD, STRONG_RULE_RANK, Item, _shape, path_name, values
from . import prose
from ..memos import remembered

# Words a correction is made of besides what it corrects; they say nothing of what is corrected.
_FILLER = frozenset("""sorry actually correction wait oops whoops meant mean not the one other old that this make
    was wrong typo mixed misremembered misspoke gave you and instead should have been scratch bad mistake
    update change use using used goes taken right correct new value its it's said told mentioned gave earlier
    before previous there here what which with from for are but also just now then please thanks nope
    ignore hmm yes yeah okay fine sure like really think will would could can let's lets get got put set
    into onto about over under only all any some more most less very much too its our your their them
    they his her him she has have had does did done doing being been were way thing things stuff one
    rule rules ground session whole never always must don't dont run use keep more every each before after
    against hard constraint safety fact goal state user preference note important quick going forward onward
    onwards henceforth anymore moving ahead later today these days revisit revisiting revisited scrap scratch
    agreed decided discussed idea plan option approach mind second thought thoughts thinking reflection make
    made come hiya hey ugh argh gah meh oki""".split()) | frozenset(
    # the words that carry no subject in Spanish, Portuguese, French, German and Italian ("a emissão de NF-e parou depois
    # das 14h" and "a Jéssica usa o admin das 8h" share none)
    """que qué los las del por para con una uno unos unas como más mas pero sobre este esta esto estos estas ese esa
    eso esos esas aquí ahí allí fue está están muy todo todos toda todas cuando donde porque también
    les sus tus ella ellos ellas pues entonces bueno oye porfa ahorita así otra otro otros otras mismo misma hasta
    desde entre tiene tengo hace das nas pra uma umas uns isso isto essa esse aqui ali tem tá são foi muito quando
    onde ele eles elas seu sua meu minha nessa nesse neste nesta dessa desse deste desta então tipo né vou vai vamos
    les une avec dans qui sont pas mais ces cette ses leur vous ils elle elles tout tous comme
    der dem ein eine einen einem einer und oder mit für von auf ist sind nicht aber auch noch wie wenn dann bei aus
    zum zur nach über sich wir uns lass weil nehmen che della delle dei sono più questo questa anche
    jeg har det med går ikke men kan skal vil her der som den til også lige hvad hvis når jag inte och att ska eller
    est était etait été sont war era eram eran será sera"""
    """ meg ikkje eller
    não nao niet inte"""  # (and their "not": "não, muda: holdout safra 2023" is about no seed rule's "não")
    # Dutch and Polish ("Ik kom terug op de COPRAR-validatie: toch niet ... We gaan voor ..." and "Besluit voor het
    # optimalisatiemodel: we doen het CP-SAT-model met een tijdslimiet van 132 seconden" share none)
    """ het een van voor met dat die wat ook maar nog zijn hebben heb doen gaan gaat kom komt terug toch naar bij
    dus wel even geen moet kan zou worden wordt deze dit onze jullie zij hun alle niets iets
    nie się jest są jak ale czy już tylko też tak nas dla przy oraz przez jeszcze może trzeba""".split())
_WORD = re.compile(r"[^\W\d_]\w{2,}")  # (a word in any alphabet: "emissão" is one, not "emiss")
# A named value: with a digit, an address, or an identifier's shape without one ("kyc-db.staging.internal",
# "dispute_holds", "handleCashbackSettle", "web/src/api"): words ("not the staging one") are no value.
_NAMED = (r"(?:[$€£¥]?[\w.@:/+-]*\d[\w.@:/+-]*(?:,\d{3}(?!\d)[\w.@:/+-]*)*|[\w.+-]+@[\w.-]+|\w+://\S+|[A-Za-z][^\W_]*(?:-[^\W_]+)*(?:[._/:][^\W_]+(?:-[^\W_]+)*)+|"
          r"(?-i:[a-z]+(?:[A-Z][a-z0-9]+)+)|(?-i:[A-Z][A-Z0-9_]{4,}(?![a-z]))|"  # (a user or schema in capitals: "BSAHINER")
          r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+){2,})")  # (a name joined by hyphens: "fanout-topup-redis")
_NAMED_OLD_AFTER = re.compile(r"(?<![\w.@:/+-])(" + _NAMED + r")[`'\"]? (?:(?:was|is) (?:wrong|"
                              r"decommissioned|retired|old|outdated|deprecated|a typo|gone|dead|the old one)\b|"
                              r"(?:nahi|nahin)\b(?: (?:re|yaar|bhai|hai))?\s*(?:[,;\u2014\u2013-]|\.?\s*$)|"  # ("X nahi re, Y")
                              r"de[gğ]il\b|yerine\b|"  # (Turkish: "VERTAN değil GCINAR", "X yerine Y ile gidelim")
                              # ("10.31.9.44 じゃなくて 10.31.9.47", "SAF-42710 じゃない", "8080이 아니라 8443")
                              r"\s*(?:じゃなくて|じゃなく|ではなくて?|じゃない|ではない|이 아니라|가 아니라|이 아니고|가 아니고|아니라|아니고))",
                              re.IGNORECASE)
_NAMED_OLD = re.compile(r"(?:不是\s*|\b(?:instead of|rather than|plut[ôo]t que|not|no longer|in place of|replacing|scratch|forget|ignore|pas|nicht|statt|en vez de|"
                        r"en lugar de|au lieu de|non|no es|n[ãa]o [ée]|no|n[ãa]o|nie|niet|inte|ikke|bukan)\s+)(?:(?:the|la|le|les|el|der|die|das|il|lo|o|a)\s+)?"
                        # the name a value goes with ("not Oostzeedijk 358", "not EUR 7.1 million", "non la Sala Isola 6B")
                        r"(?:(?:(?-i:[A-Z\u00c0-\u00dd][\w'-]*)\s+){1,3}(?=[`'\"]?[\w.@:/+-]*\d))?[`'\"]?(" + _NAMED + r")(?![\w-])",
                        re.IGNORECASE)


# A value written against Japanese words, with no space, and what says it is the old one ("stg-lantern-52は古い方で、
# 正しくはstg-lantern-59", "ip-10-42-31-74じゃなくて ..."): the value in Latin letters and digits only (a word
# character of the script would join the two).
_NAMED_OLD_CJK = re.compile(r"(?<![A-Za-z0-9_.@:/+-])([A-Za-z0-9._@:/+-]+?)[`'\"]?"
                            r"(?:は古い(?:方|ほう)(?:で|[、,])|じゃなくて|じゃなく[、,]|ではなくて?[、,]?)")


# The old value under the words the new one was said with, set against it ("it's baie outillage U67, not baie outillage
# S39", "c'est le quai B12, pas le quai B21"): the same words, whatever their case.
_NAMED_OLD_TWICE = re.compile(r"(?<![\w-])(?P<words>(?:[^\W\d_][\w'-]*\s+){1,3})[`'\"]?[\w.@:/+-]*\d[\w.@:/+-]*[`'\"]?"
                              r"(?:\s+[^\W\d_]{1,10})?,?\s+"  # (a unit after it: "96 days rather than ... 56 days")
                              r"(?:not|pas|nicht|no|non|n[ãa]o|niet|inte|ikke|bukan|rather than|instead of|plut[ôo]t que|au lieu de|"
                              r"en vez de|em vez de|statt|invece di)\s+(?:(?:the|le|la|les|el|der|die|das|il|lo|o|a)\s+)?"
                              r"(?P=words)[`'\"]?(" + _NAMED + r")(?![\w-])", re.IGNORECASE)


def named_old(text: str) -> set[str]:
    """The values a correction names as the old ones ("not 8080", "SAF-42710 じゃない", "X nahi re")."""
    named = {m.group(1).rstrip(".,;:") for pattern in (_NAMED_OLD, _NAMED_OLD_AFTER) for m in pattern.finditer(text)}
    if " not " in text or " pas " in text or any(f" {w} " in text for w in (
            "nicht", "no", "non", "não", "nao", "niet", "than", "instead", "que", "lieu", "vez", "statt", "invece", "bukan")):
        named |= {m.group(2).rstrip(".,;:") for m in _NAMED_OLD_TWICE.finditer(text)}
    # (a value against Japanese words holds a digit: the pattern leaves that to here, where it costs nothing)
    cjk = (m.group(1).rstrip(".,;:") for m in _NAMED_OLD_CJK.finditer(text))
    return named | {v for v in cjk if any(c.isdigit() for c in v)}


SAID_BEFORE = ("instruction", "request", "identifier")
NEAR = 4  # messages back that "scratch that" reaches
_TAKES_BACK = re.compile(r"\b(?:scratch that|scrap that|ignore (?:that|the earlier|what I said|my last)|forget (?:that|what I said)|"
                         r"never ?mind|disregard|oublie ça|vergiss das|olvida eso)\b", re.IGNORECASE)
_FORBIDDING = re.compile(r"\b(?:never|do not|don'?t|must not|mustn'?t|no longer allowed|forbidden|jamais|nie|niemals|nunca|"
                         r"aldrig|aldri|nooit|nigdy|kabhi (?:bhi )?(?:nahi|mat))\b|절대|決して", re.IGNORECASE)


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NUMBER = re.compile(r"(?<![\w.])\d[\d.,]*\d(?![\w])")


def evidence_words(text: str) -> frozenset[str]:
    """The words and numbers (two digits or more) a text speaks of, names split at their joints
    ("annuityMaxInFlight: 21" speaks of annuity, flight and 21): what an agent's summary of an output
    and the output's line share."""
    split = _CAMEL.sub(" ", text).replace("_", " ")
    return content_words(split) | frozenset(n.rstrip(".,") for n in _NUMBER.findall(text))


def content_words(text: str) -> frozenset[str]:
    """The words that say what a statement is about, crudely stemmed ("owns" and "owner" are one)."""
    return frozenset(_stem(w) for w in _WORD.findall(text.lower()) if w not in _FILLER and not w.isdigit())


# A name: a capitalised word inside a sentence ("Initech", "Gekko Partners"), not its first word, nor a day's
# or a month's.
_NAME = re.compile(r"(?<=[\w,:;)\]] )[A-Z][a-z][\w&'-]*")
_CALENDAR = frozenset("monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun january "
                      "february march april may june july august september october november december jan feb mar apr jun "
                      "jul aug sep sept oct nov dec".split())


@functools.lru_cache(maxsize=4_096)
def _names(text: str) -> frozenset[str]:
    """The names a choice says ("initech", "gekko", "partners"), lower-cased."""
    return frozenset(n for m in _NAME.finditer(text) if (n := m.group(0).lower().removesuffix("'s")) not in _CALENDAR)


def _named_apart(update: str, statement: str) -> bool:
    """Whether a statement and an update without a word of correction each name things and share none of the
    names: two things said of, not one thing said again ("our Zendesk ticket ..." after "the Okta ticket ...").
    Asked only of an update that carries a value: where there is none, a name may be the new value itself
    ("Ozyu Lpjmb now owns the pager", "report all times in Pacific time")."""
    mine, theirs = _names(update), _names(statement)
    if not (mine and theirs) or mine & theirs:
        return False
    # (a name said first in one is no name of _NAME's, "Rodrigo Quaresma's reimbursement goes to ..." and "... for
    # Rodrigo's reimbursement": one said by the other in any place is shared)
    return not (mine & _words_of(statement) or theirs & _words_of(update))


def _words_of(text: str) -> frozenset[str]:
    return frozenset(w.removesuffix("'s") for w in re.findall(r"[a-z][\w'&-]*", text.lower()))


# The words that say a choice is revised, not what it is about (stemmed as content_words stems them).
_REVISING = frozenset({"revisit", "instead", "scrap", "scratch",
                       # (as stemmed: "change of plan", "changement de plan: X au lieu de Y", "cambio: X en lugar de Y",
                       # "X statt Y", "em vez de", "invece di", "in plaats van", "zamiast", "Planänderung")
                       "chang", "changement", "plan", "planes", "plano", "piano", "cambio", "mudan", "mudanca", "nderung",
                       "wijzig", "zmiana", "lieu", "lugar", "statt", "vez", "invece", "plaat", "zamiast", "switch",
                       "replac", "replace", "rath",
                       # (second thoughts: "voltei atrás", "pensándolo mejor", "pensando bem", "bij nader inzien", "po
                       # namyśle", "ripensandoci", "tout bien réfléchi", "vazgeçtim", "mudei de ideia", "on second thought")
                       "voltei", "atrá", "atra", "pensando", "pensándolo", "pensandolo", "mejor", "melhor", "bem", "bien",
                       "bene", "pensarci", "ripensandoci", "nad", "inzien", "namyśle", "réfléchi", "vazgeçtim", "mudei",
                       "ideia",
                       # ("hab nochmal drüber nachgedacht", "thought about it again", "ved nærmere eftertanke", "réflexion
                       # faite", "ci ho ripensato", "lo pensé mejor", "pensei melhor", "przemyślałem", "X i stedet for Y")
                       "hab", "habe", "nochmal", "nochmals", "drüb", "darüb", "nachgedacht", "again", "overnight", "slept",
                       "anoth", "ved", "vid", "nærmere", "närmare", "eftertanke", "ettertanke", "réflexion", "faite", "aprè",
                       "ripensato", "pensé", "pensado", "pensei", "przemyślałem", "przemyślałam", "stedet", "istället",
                       "anstatt", "anstelle", "tænkt", "tænk", "igen", "igjen", "ombestemt", "dropp", "dropper"})
# A name in code: a dotted, slashed or joined word ("payments.captured-ach-batcher", "ach_batcher_p99_latency").
_CODE = re.compile(r"(?<![\w.-])[A-Za-z][\w-]*(?:[._/][\w-]+)+|(?<![\w.-])[a-z]+_[\w]+")


@functools.lru_cache(maxsize=4_096)
def _codes(text: str) -> frozenset[str]:
    """The names in code a text says, lower-cased."""
    return frozenset(m.group(0).lower().rstrip(".") for m in _CODE.finditer(text))


def _names_own(correction: str, statement: str) -> bool:
    """Whether a correction and a statement each say two names the other does not ("Tyrell Biotech", "Soylent
    Foods"): said of two things. One name of its own may be the new value ("the other Olga: Olga Delacroix")."""
    mine, theirs = _names(correction), _names(statement)
    return len(mine - theirs) >= 2 and len(theirs - mine) >= 2


@functools.lru_cache(maxsize=65_536)
def _stem(word: str) -> str:
    for end in ("ing", "ed", "er", "es", "s"):
        if len(word) - len(end) >= 3 and word.endswith(end):
            return word[:-len(end)]
    return word


_HANDLE = re.compile(HANDLE)
# What after a dot names a file's type, not a surname ("a.json", "x.yaml" are files; "i.karlsson", "w.kim" people).
_FILE_SUFFIXES = frozenset("""txt csv tsv pdf doc docx xls xlsx xlsm ppt pptx odt json yaml yml toml html htm xml conf cfg ini
    lock java js jsx ts tsx css scss less sql log md rst out png jpg jpeg gif svg webp zip tar rar gzip env lua kts
    swift scala proto class cache local patch backup bundle config plist jsonl ndjson parquet sqlite tfvars tfstate
    gradle ipynb eml wav mp3 mp4 mov avro orc pickle bash fish dart vue""".split())


@remembered(8_192)  # a value is sorted again for every statement it may correct
def kind(value: str) -> str:
    """What sort of value: two values of one kind may be one setting's old and new value."""
    low = value.lower()
    if "://" in low:
        return "url:" + low.split("://", 1)[0]
    if "@" in low and "." in low.rsplit("@", 1)[-1]:
        return "email"
    if low.isdigit():
        return "number"
    if _HANDLE.fullmatch(low) and low.split(".", 1)[1] not in _FILE_SUFFIXES:
        return "handle"  # a person's, an initial and a surname ("i.karlsson"): no file of type "karlsson"
    if "/" not in low and re.fullmatch(r"[\w.-]+\.[a-z][a-z0-9]{1,7}", low) and not re.fullmatch(r"[\d.]+", low):
        return "file:" + low.rsplit(".", 1)[-1]
    if re.fullmatch(r"\d{1,4}[-/.]\d{1,2}(?:[-/.]\d{1,4})?", low):
        return "date"
    if re.fullmatch(r"\d+(?:\.\d+)+", low):
        return f"dotted{low.count('.')}"
    if "/" in low:
        tail = low.rsplit("/", 1)[-1]
        return "path" + (tail.rsplit(".", 1)[-1] if "." in tail else "")
    return "form:" + re.sub(r"(?:[a-z]+|\d+)", lambda m: "a" if m.group(0)[0].isalpha() else "0", low)


def _distinct_kind(name: str) -> bool:
    """A kind of value rare enough that two of it are likely one setting: an address, a file of one type."""
    return name.startswith(("url:", "email", "file:")) or (name.startswith("path") and name != "path")


def _distinct(shape: str) -> bool:
    """A shape with letters of its own ("release/0.0", "bld-h"): alike values are alike on their own."""
    return sum(c.isalpha() for c in shape) >= 3


RESTATED_FROM = ("instruction",)  # what a later statement of the same setting replaces
RESTATING = ("instruction", "request")  # the user's own later words that can restate it
RESTATE_BACK = 400  # messages back a restatement reaches
_LABEL = re.compile(r"([A-Za-z][\w-]{2,})\W{0,3}$")
_AMOUNT = re.compile(r"\d[\d.,]*(?:%|[a-zA-Z]{1,3})?")  # a number a setting is set to ("0.75", "15", "30s"); "PR-41" names a thing
_REVISES = re.compile(r"\b(?:instead|wrong|old|actually|rather|typo|meant|not)\b|\brwong\b", re.IGNORECASE)
_ADDS = re.compile(r"\btoo\b(?=\s*(?:[.!?,;]|$))|\b(?:as well|another|other one|in addition|additionally|auch|aussi|también)\b", re.IGNORECASE)


def restate(merged: list[Item]) -> list[Item]:
    """A setting said again later with another value holds with the latest words ("fyi dedup with minhash
    jaccard 0.75" ... "rerun dedup wit minhash jaccard 0.82"): the earlier statement leaves, and the later
    one takes its place among the instructions, at its rank, citing both. The same setting: a number
    after the same word, with two more words of the statement shared; or a value of a shape of its own
    (``global_step0``, a path in the same folder) with one word shared and a word that revises. What says
    it adds one ("too", "another") or forbids restates nothing."""
    olds = [i for i in merged if i.section in RESTATED_FROM and not i.correction and values(i.text)]
    news = [i for i in merged if i.section in RESTATING and not i.correction and values(i.text)]
    if not olds or not news:
        return merged
    keys = {id(i): _setting_keys(i.text) for i in (*olds, *news)}
    gone: dict[int, Item] = {}  # id of a statement -> the one that restates it
    by_src = sorted(olds, key=lambda i: i.src)  # each new statement reads only the olds of its reach
    srcs = [i.src for i in by_src]
    for new in sorted(news, key=lambda i: i.src):
        if _ADDS.search(new.text) or _FORBIDDING.search(new.text):
            continue  # "compare week 37 too": one more, not the same one again; two prohibitions both stand
        new_keys = keys[id(new)]
        revises = bool(_REVISES.search(new.text))
        for old in by_src[bisect.bisect_left(srcs, new.src - RESTATE_BACK):bisect.bisect_left(srcs, new.src)]:
            if (id(old) in gone or old is new or _FORBIDDING.search(old.text) or not _same_setting(keys[id(old)], new_keys, revises)):
                continue
            gone[id(old)] = new
    if not gone:
        return merged
    by_new: dict[int, list[Item]] = defaultdict(list)
    for old_id, new in gone.items():
        by_new[id(new)].append(next(i for i in olds if id(i) == old_id))
    out = []
    for item in merged:
        if id(item) in gone:
            continue
        replaced = by_new.get(id(item))
        if replaced:
            cited = {*item.supersedes, *(o.src for o in replaced), *(s for o in replaced for s in o.supersedes)}
            item = item._replace(section="instruction", rank=max([item.rank, *(o.rank for o in replaced
                                                                              if o.section == "instruction")]),
                                 supersedes=tuple(sorted(cited)))
        out.append(item)
    return out


def _setting_keys(text: str) -> tuple[frozenset[tuple[str, str]], frozenset[str]]:
    """What a statement sets: (how each value is named: a number by the word before it, a value of a
    shape of its own by that shape, a path by its folder; and the value), and its other words."""
    named = set()
    found = values(text)
    for value in found:
        shape = _shape(value)
        if "/" in value.strip("/"):
            named.add(("folder:" + value.rsplit("/", 1)[0].lower(), value))
            if name := path_name(value):  # ".../vandelay-imports-846", then "the bucket is the eu one, .../vandelay-imports-973"
                named.add(("name:" + name, value))
        elif _distinct(shape):
            named.add(("shape:" + shape.lower(), value))
        elif _AMOUNT.fullmatch(value):
            before = _LABEL.search(text[:text.find(value)])
            label = content_words(before.group(1)) if before else frozenset()
            if label:  # "jaccard 0.75"; "for 67", "week 17" name no setting
                named.add(("after:" + min(label), value))
    rest = text
    for value in found:  # the words of the values themselves ("ORD" of ORD-7357029) say nothing more
        rest = rest.replace(value, " ")
    return frozenset(named), content_words(rest)


def _same_setting(old: tuple[frozenset[tuple[str, str]], frozenset[str]],
                  new: tuple[frozenset[tuple[str, str]], frozenset[str]], revises: bool) -> bool:
    """Whether ``new`` sets what ``old`` set, to another value (see :func:`restate`); a value named by its
    shape or folder only when the new words say they revise ("instead", "wrong", "the old one"): two
    tickets or two branches in the same words are two things."""
    common = old[1] & new[1]
    shared = len(common)
    for name, value in old[0]:
        for other_name, other in new[0]:
            if name != other_name or value == other or _other_things((other,), (value,)):
                continue  # (".../umbrella-health-384" in the folder of ".../vandelay-imports-973": another thing)
            if name.startswith("name:"):
                return True  # the same name of two words or more, in a path's last part, given again
            # two more words than the one the number follows ("cost centre 583" and "cost centre 500" share
            # "centre" by being named so: "cost" alone does not make them one setting)
            if len(common - {name[6:]}) >= 2 if name.startswith("after:") else (revises and shared >= 1):
                return True
    return False


def revise_decisions(merged: list[Item]) -> list[Item]:
    """A decision that revises an earlier choice ("ok scrap that idea; let's ...", "changing my mind: ...")
    supersedes it: of the eight decisions before it, the one it shares most words with, else the latest
    when that was said just before (a revision that shares at most one word with any, and no name or name in
    code, revises none here; the words that say it revises are not counted). A choice
    the user stated plainly ("ok, we invoice Fenwick Ltd in GBP from invoice 2681") stands among the
    instructions as a setting or a plain rule: a revision about the same thing ("we'll invoice Fenwick Ltd in
    EUR from invoice 2681 onwards instead": three words or values shared, or two and two in five of the
    shorter's) that shares more with it than any decision does supersedes it there, and takes its place
    among the instructions with a correction's rank (the choice had stood alone in the block, the
    revision lost)."""
    decisions = [i for i in merged if i.section == "decision"]
    if not any(i.update for i in decisions):
        return merged
    decisions.sort(key=lambda i: i.src)
    settings = [(i, _about(i.text)) for i in merged
                if i.section == "instruction" and i.rank < STRONG_RULE_RANK and not i.update]
    gone: set[int] = set()
    replaced: dict[int, Item] = {}
    for n, item in enumerate(decisions):
        if not item.update:
            continue
        words = content_words(item.text) - _REVISING  # ("revisiting ..." is not about what says "revisit on Monday")
        stated = _stated_choice(item, [(i, w) for i, w in settings if id(i) not in gone]) if item.user else None
        # (one already taken among the instructions, as the revision of a choice stated there, is no
        # decision to revise: a later one that shared two words with it took the user's correction out)
        # The eight before it, and any earlier one about someone or something it names ("on Initech, scratch
        # the credit, ..." 500 messages after "ok for Initech: let's offer Initech a 11% credit ...").
        named = _names(item.text)
        far = [d for d in decisions[:max(0, n - 8)] if named & _names(d.text)] if named else []
        # (the agent revises no choice of the user's: "Ok, zod for form validation in web/. I'll drop the earlier
        # plan." answers the user's "hab nochmal drüber nachgedacht: zod statt valibot ...", it takes nothing back)
        before = [d for d in far + decisions[max(0, n - 8):n]
                  if id(d) not in gone and d.src < item.src and replaced.get(id(d), d).section == "decision"
                  and (item.user or not d.user)]
        shared = max((len(words & content_words(d.text)) for d in before), default=0)
        if stated is not None and stated[1] > shared:
            target = stated[0]
            gone.add(id(target))
            replaced[id(item)] = item._replace(section="instruction", rank=CORRECTION_RANK, supersedes=tuple(
                sorted({*item.supersedes, target.src, *target.supersedes, *([target.first] if target.first >= 0 else [])}
                       - {item.src})))
            continue
        if not before:
            continue
        # (one about what it names first: "... give Gekko Partners one month free ..." shares more words with
        # Initech's "... give Initech one month free ..." than with the Gekko Partners credit it revises)
        codes = _codes(item.text)
        target = max(before, key=lambda d: (bool(named & _names(d.text)), len(words & content_words(d.text)), d.src))
        if (len(words & content_words(target.text)) < 2 and not named & _names(target.text) and not codes & _codes(target.text)
                and target.src < item.src - NEAR):
            continue  # shares a word at most with any, names none, and none is just before it: it revises what is not here
            # ("... the payments.captured-ach-batcher consumer ..." and "... the HPA flaps on the batch spikes ...")
        gone.add(id(target))
        replaced[id(item)] = item._replace(supersedes=tuple(sorted({*item.supersedes, target.src, *target.supersedes})))
    return [replaced.get(id(i), i) for i in merged if id(i) not in gone]


# Words or values a revision shares with a choice stated among the instructions that make it that choice's
# revision whatever their lengths ("let's keep Acme Robotics on Pro and add the SSO add-on ... after all" for
# "also Acme Robotics wants SSO, we'll move Acme Robotics to the Business plan at $45/seat").
REVISED_SHARED = 3


def _stated_choice(revision: Item, settings: list[tuple[Item, frozenset[str]]]) -> tuple[Item, int] | None:
    """Of the choices stated among the instructions before ``revision`` (each with its :func:`_about`), the
    one it revises, with the words and values they share: the most shared, then the latest."""
    about = _about(revision.text)
    best: tuple[Item, int] | None = None
    for stated, words in settings:
        shared = len(about & words)
        if stated.src < revision.src and (shared >= REVISED_SHARED or _alike(shared, about, words)) and (
                best is None or (shared, stated.src) > (best[1], best[0].src)):
            best = (stated, shared)
    return best


SWITCHED_WORDS = 2  # words of what a choice made again switches ("the bank import") that name the statement it changes


def _switches(changed: frozenset[str], cand_words: frozenset[str]) -> bool:
    """Whether a choice made again, of what ``changed`` (its words: see :func:`.prose.switched`) names, changes the
    statement of ``cand_words``: "we switch the bank import to CAMT.053 files" that of "we keep the MT940 bank
    import until 7 Nov"."""
    return len(changed) >= SWITCHED_WORDS and changed <= cand_words


def _about(text: str) -> frozenset[str]:
    """The words and values a statement is about (an amount or a date both name is evidence as a word is)."""
    return content_words(text) | frozenset(values(text))


def _alike(shared: int, words: frozenset[str], other: frozenset[str]) -> bool:
    """Whether two statements share enough words to be about the same thing (an update's evidence)."""
    return shared >= 2 and shared >= 0.4 * min(len(words), len(other))


# What a correction says was wrong, by its kind ("wrong bucket", "galat bucket", "falscher Bucket", "mauvais bucket").
_WRONG_THING = re.compile(r"\b(?:wrong|galat|falsche[rsn]?|falsch|mauvais|mauvaise|equivocad[oa]|errad[oa])\s+([A-Za-z]{3,})\b",
                          re.IGNORECASE)
# A name of three parts or more joined by "-" or "_" ("kj-mysql-archive-mkrw", "orders_status_idx"): a value a correction
# gives, though it has no digit or slash.
# (and a registration or call sign in capitals joined by a hyphen: "c'est F-HZUP", "it's D-AIBC")
_CAPS_NAME = re.compile(r"(?<![\w.@/-])(?:[A-Z][A-Z0-9_]{4,}|(?=[A-Z-]{6})[A-Z]{1,3}-[A-Z]{3,5})(?![\w-])")
_JOINED_NAME = re.compile(r"(?<![\w.@/-])[A-Za-z]\w*(?:[-_][A-Za-z0-9]\w*){2,}(?![\w-])")


# The kinds of value a correction may say were wrong ("wrong port", "wrong parent ticket"): prose's, and a few more.
_WRONG_KINDS = frozenset(prose.WRONG_WHAT.split("|")) | frozenset(
    "ip date day queue channel account project repo folder".split())


def _qualifier(text: str, wrong: re.Match[str]) -> str:
    """The word that sets the wrong thing apart from others of its kind ("wrong parent ticket" -> "parent"), or ""."""
    after = text[wrong.end():].split(maxsplit=1)
    kind_word = after[0].lower().strip(",.:;") if after else ""
    return _stem(wrong.group(1).lower()) if kind_word in _WRONG_KINDS and wrong.group(1).lower() not in _WRONG_KINDS else ""


def supersede(merged: list[Item]) -> list[Item]:
    """``merged`` with each correction's superseded statement taken out and cited by the correction;
    a correction that supersedes nothing and carries no value of its own becomes a request."""
    corrections = sorted((i for i in merged if i.section == "instruction" and (i.correction or i.update)),
                         key=lambda i: i.src)
    if not corrections:
        return merged
    # (and the user's own choices, which a correction takes out only where it names the old value: "Moment mal — ERA5
    # 1995-2004, nicht ERA5 1994-2003." after "Für den Hindcast nehmen wir ERA5 1994-2003 als Antrieb")
    said = [i for i in merged if i.section in SAID_BEFORE or (i.section == "decision" and i.user)]
    facts = [(item, vals := tuple(v for v in values(item.text)), {_shape(v) for v in vals}, {kind(v) for v in vals},
              content_words(item.text)) for item in said]
    by_word: dict[str, list[int]] = defaultdict(list)
    by_kind: dict[str, list[int]] = defaultdict(list)
    for n, (_item, _vals, _shapes, kinds, words) in enumerate(facts):
        for w in words:
            by_word[w].append(n)
        for k in kinds:
            by_kind[k].append(n)
    gone: set[int] = set()  # indexes into facts
    replaced: dict[int, Item] = {}  # id of a correction -> the correction with what it supersedes
    marked: dict[int, Item] = {}  # id of a statement kept beside its correction -> it, marked corrected
    demoted: set[int] = set()
    for correction in corrections:
        named = named_old(correction.text)
        new_values = tuple(v for v in values(correction.text) if v not in named)
        if not new_values and correction.correction:  # a name with no digit ("galat bucket yaar, kj-mysql-archive-mkrw wala",
            # "sorry, HOZKOK. not BSAHINER.")
            new_values = tuple(v for v in _JOINED_NAME.findall(correction.text) + _CAPS_NAME.findall(correction.text)
                               if v not in named)
        words = content_words(correction.text)
        wrong = _WRONG_THING.search(correction.text)
        wrong_what = _stem(wrong.group(1).lower()) if wrong else ""
        qualified = _qualifier(correction.text, wrong) if correction.correction and wrong else ""
        plain = words - content_words(" ".join(new_values))
        # what an update that makes a choice again switches ("the bank import"), read once for every candidate
        changed = content_words(prose.switched(correction.text)) if not correction.correction else frozenset()
        pool = {n for w in words for n in by_word.get(w, ())} | {n for v in new_values for n in by_kind.get(kind(v), ())}
        forbids = bool(_FORBIDS.match(correction.text) or _FORBIDDING.search(correction.text))
        said_names = _names(correction.text)
        place = _INSTEAD_OF.search(correction.text)  # what it takes the place of, in words
        instead_of = content_words(correction.text[place.end():place.end() + INSTEAD_CHARS]) if place else frozenset()
        best, best_rank = -1, (0, 0, 0, 0, 0, 0)
        for n in sorted(pool):
            item, vals, shapes, kinds, cand_words = facts[n]
            if n in gone or item.src > correction.src or (item.src == correction.src and (
                    item.correction or item.section == "identifier")):
                continue  # a correction corrects what was said before it, in its own message too
            if item is correction or (not correction.correction and item.section == "request"):
                continue  # an update updates what stands (a rule, a setting, an id), not what was asked
            overlap = len(words & cand_words)
            if qualified and qualified not in cand_words and not named.intersection(vals):
                continue  # "wrong parent ticket before, it's HD-566555" is not about "the ticket HD-608881" asked of
            if _other_things(new_values, vals):
                continue  # "the bucket is the eu one, s3://.../umbrella-health-384" is about another customer's
            if not forbids and _FORBIDDING.search(item.text) and not any(v in named for v in vals) and not (
                    overlap and _same_shape(new_values, vals)):
                continue  # a prohibition stands unless the correction forbids too, names it, or plainly fits it
            score = _score(correction.text, new_values, named, words, vals, cand_words, item.text)
            if item.section == "decision" and (not correction.correction or (score < 10 and not (
                    instead_of and len(instead_of & cand_words) >= len(instead_of) - (len(instead_of) > 3)))):
                continue  # (or says what it takes the choice's place of: "Og change of plan: sqlite WAL for the
                # offline buffer instead of sled for the offline buffer."; not "... on InstallmentMapper zamiast
                # spring-retry on InstallmentMapper" of "decided: resilience4j circuit breaker on PayoutScheduler")
            if item.correction and score < 10 and (not (_same_shape(new_values, vals) and len(plain & cand_words) >= 2)
                                                   or _names_own(correction.text, item.text)):
                continue  # an earlier correction is corrected again only on plain evidence: it names its value
                # (or two words beside the values: "localhost" of localhost:7092 and localhost:5246 is the shape again),
                # and it is about the same one ("..., let's send Tyrell Biotech the audit export as Parquet, split
                # into 19 monthly files" is not "..., let's send Soylent Foods the audit export ..., 20 monthly files")
            if not score and correction.correction and _same_shape(new_values, vals) and (
                    overlap or not words or _kind_named(words, vals)):
                score = 1  # "Sorry, I meant 0045.": the latest value of its shape, when nothing fits better
            if not score and correction.correction and new_values and vals and wrong_what and wrong_what in cand_words:
                score = 1  # "galat bucket yaar, kj-mysql-archive-mkrw wala": the latest statement of the thing it says was wrong
            if not correction.correction:  # an update: on plainer evidence only, about the same thing
                shared = len(words & cand_words)
                score = score if _alike(shared, words, cand_words) or (score >= 3 and shared >= 1) else 0
                if not score and _switches(changed, cand_words):
                    score = 1  # "we switch the bank import to CAMT.053 files on 7 Nov" after "we keep the MT940 bank
                    # import until 7 Nov": what it switches, named in that statement; its values of another kind
                if score and new_values and _named_apart(correction.text, item.text):
                    continue  # "our Zendesk ticket 88123 is the one to update" is not "the Okta ticket ... is case 4633"
            if not score:
                continue
            # Of statements it fits as well: what the user said before a tool's line that names a value of its
            # shape ("argh wrong ip. it's 10.22.141.158" corrects the user's 10.22.141.159, not the agent's list
            # of another IP since); then the latest message; in it, a setting before a prohibition
            # ("never run 0193" stands when "the migration is 7090" corrects "apply 1713"), the user's
            # words before an identifier line, the later sentence.
            # (a name the correction says that the statement says too weighs in the choice among candidates, never in
            # whether one is corrected at all)
            named_thing = NAMED_THING if said_names and said_names & _names(item.text) - _names(" ".join(vals)) else 0
            # (and, as surely fitted, a statement before an earlier correction, which is corrected again only on
            # plainer evidence: "I gave you the wrong work order: it's WO-746505." of "gearolie-jobbet ligger under
            # WO-746055", not of the earlier "wait, scratch that work order – WO-655491.")
            rank = (score + named_thing, int(not item.correction or score >= 10),
                    int(item.section != "identifier" or not correction.correction), item.src,
                    int(forbids or not _FORBIDDING.search(item.text)), int(item.section != "identifier"))
            if rank > best_rank:
                best, best_rank = n, rank
        if best < 0 and correction.correction and _TAKES_BACK.search(correction.text):
            # "Scratch that", "ignore the earlier instruction": the user's own words just before it.
            recent = [n for n, fact in enumerate(facts) if n not in gone and fact[0].section in ("instruction", "request")
                      and correction.src - NEAR <= fact[0].src < correction.src and not fact[0].correction]
            best = max(recent, key=lambda n: facts[n][0].src, default=-1)
        if best < 0:
            if not new_values and correction.correction and not _PROPER_NAME.search(correction.text):
                demoted.add(id(correction))  # "sorry, ignore that": it names nothing to keep
            continue
        target = facts[best][0]
        olds = {v for v in facts[best][1] if v in named or v not in correction.text}
        kept = [v for v in olds if new_values and _substantial(v) and not _replaced_by(v, new_values, named)]
        if kept and not correction.correction and _switches(changed, facts[best][4]):
            kept = []  # what a choice made again switches is the statement's value, whatever its kind
        if kept and wrong_what and wrong_what in facts[best][4] and len(facts[best][1]) == 1:
            kept = []  # "galat bucket": the statement's one value was the wrong bucket, whatever its shape
        if kept and target.section != "identifier":
            # The statement says more than the value corrected (another date, another address): it stays,
            # marked as corrected, the correction beside it first among the instructions.
            marked[id(target)] = target._replace(text=f"{target.text} (corrected at [#{correction.src}])")
            olds = {v for v in olds if v not in kept}
        else:
            gone.add(best)
        # What states an old value it replaced leaves with the statement: the other items of the same
        # message that hold it (a request, an identifier line), and identifier lines of it anywhere before.
        for n in (n for v in olds for n in by_kind.get(kind(v), ())):
            item = facts[n][0]
            if item.src < correction.src and ((item.section == "identifier" and item.key in olds) or (
                    item.src == target.src and any(v in item.text for v in olds))):
                gone.add(n)
        current = replaced.get(id(correction), correction)
        cites = {*current.supersedes, target.src, *target.supersedes}
        if target.first >= 0:
            cites.add(target.first)
        replaced[id(correction)] = current._replace(supersedes=tuple(sorted(c for c in cites if c < correction.src)))
    dropped = {id(facts[n][0]) for n in gone}
    out = []
    for item in merged:
        if id(item) in dropped:
            continue
        if id(item) in demoted:
            out.append(item._replace(section="request", key=item.text.lower(), rank=0))
            continue
        out.append(replaced.get(id(item), marked.get(id(item), item)))
    return out


# A name the user gives inside a sentence ("it's the Seville office", "es la otra Olga: Olga Delacroix"): what a
# correction without a value of its own still says is current, so it stays a correction.
_PROPER_NAME = re.compile(r"(?<=[\w,:;\u2014\u2013-] )[A-Z\u00c0-\u00dd][a-z\u00df-\u00ff]{2,}")


INSTEAD_CHARS = 80  # after "instead of", what a correction says it replaces
_INSTEAD_OF = re.compile(r"\b(?:instead of|rather than|statt|anstatt|au lieu de|plut[ôo]t que|en (?:lugar|vez) de|em vez de|invece di|"
                         r"i stedet for|i st[äa]llet f[öo]r|in plaats van|zamiast)\b", re.IGNORECASE)


def _other_things(new_values: tuple[str, ...], vals: tuple[str, ...]) -> bool:
    """Whether a correction's values and a statement's name two other things: each has two words of its own in
    its values ("s3://beacon-exports-eu/umbrella-health-384" and ".../vandelay-imports-973": another customer's
    bucket), where a correction changes one part ("db-replica" for "db-primary") or none."""
    if not new_values or not vals:
        return False
    new = {w for v in new_values for w in NAME_WORD.findall(v.lower())}
    old = {w for v in vals for w in NAME_WORD.findall(v.lower())}
    return len(new - old) >= 2 and len(old - new) >= 2


def _substantial(value: str) -> bool:
    """A value worth keeping a corrected statement for: an address, a path, or two digits or more in a row
    (not a word with a digit in it, such as "k8s" or "s3")."""
    return "://" in value or "@" in value or "/" in value or re.search(r"\d{2}", value) is not None


def _same_shape(new_values: tuple[str, ...], vals: tuple[str, ...]) -> bool:
    """Whether a value of the correction has the fine shape of exactly one value of the statement (two
    of that shape there, "migration 0042 on port 8080", and "I meant 0045" could mean either)."""
    return any(sum(_fine(new) == _fine(old) and new != old for old in vals) == 1 for new in new_values)


def _fine(value: str) -> str:
    """A value's shape with the length of each digit run ("0042" and "0045" alike; "8080" and "80" not)."""
    return re.sub(r"\d+", lambda m: "0" * len(m.group(0)), value)


def _replaced_by(old: str, new_values: tuple[str, ...], named: set[str]) -> bool:
    """Whether a correction's values replace ``old``: it names it, or gives one of its shape or kind."""
    return old in named or any(_shape(old) == _shape(new) or kind(old) == kind(new) for new in new_values)


# The words that name a kind of value: "the version I told you was wrong, it's v3.32.8" speaks of a version.
_KIND_WORDS = (
    (frozenset({"version", "release", "tag", "pin"}), re.compile(r"^v?\d+(?:\.\d+)+(?:[-+][\w.]+)?$|:\S*\d")),
    (frozenset({"port"}), re.compile(r"^:?\d{2,5}$|:\d{2,5}$")),
    (frozenset({"branch"}), re.compile(r"/")),
    (frozenset({"bucket"}), re.compile(r"^s3://|^gs://")),
    (frozenset({"host", "hostname", "server", "node", "machine", "ip"}), re.compile(r"^[\w-]+(?:\.[\w-]+)+$|^[\w-]*\d[\w-]*$")),
    (frozenset({"address", "email", "mail"}), re.compile(r"@")),
    (frozenset({"url", "endpoint", "link"}), re.compile(r"://")),
    (frozenset({"file", "path"}), re.compile(r"[/.]\w+$")),
    (frozenset({"ticket", "issue"}), re.compile(r"^[A-Z][A-Z0-9]+-\d+$|^#\d+$")),
)
_TOKEN = re.compile(r"[A-Za-z_][\w.-]{4,}")


_JOINT = re.compile(r"[_./:-]")


def _one_part_apart(old: str, new: str) -> bool:
    """Two names of three parts or more that differ in one ("fx_quotes_archive6", "fx_quotes_analytics6"): the
    old and the new name of one thing, where "db-primary" and "db-replica" may be two."""
    a, b = _JOINT.split(old.lower()), _JOINT.split(new.lower())
    return len(a) == len(b) >= 3 and sum(x != y for x, y in zip(a, b)) == 1


def _near_miss(old: str, new: str) -> bool:
    """Two values of six characters or more one character apart, or two next to each other swapped
    ("i.karlsson" and "i.carlsson", "10.22.141.159" and "10.22.141.158", "SEC-4141" and "SEC-4411"): one
    value mistyped, where "10.20.100.176" is another address."""
    if len(old) != len(new) or len(old) < 6:
        return False
    apart = [n for n, (a, b) in enumerate(zip(old.lower(), new.lower())) if a != b]
    return len(apart) == 1 or (len(apart) == 2 and apart[1] == apart[0] + 1
                               and old[apart[0]] == new[apart[1]] and old[apart[1]] == new[apart[0]])


def _kind_named(words: frozenset[str], vals: tuple[str, ...]) -> bool:
    """Whether the correction names the kind of one of the statement's values ("the version", "the port")."""
    return any(nouns & words and any(pattern.search(v) for v in vals) for nouns, pattern in _KIND_WORDS)


def _extends(new_values: tuple[str, ...], text: str) -> bool:
    """Whether a new value is an old name grown ("handleRoyaltyRelease" -> "handleRoyaltyReleaseV2",
    "escrow_timeout" -> "escrow_timeout_ms"): the statement named the thing by its old name."""
    olds = {t.rstrip(".,;:") for t in _TOKEN.findall(text) if _NAMELIKE.search(t)}
    return any(new != old and len(old) >= 6 and _grown(old, new)
               for new in new_values for old in olds if old not in new_values)


_NAMELIKE = re.compile(r"[_\d]|[a-z][A-Z]")  # an identifier's name, not a word ("tenant" is no old name)


def _grown(old: str, new: str) -> bool:
    """Whether ``new`` is ``old`` with a part added at a name's joint ("V2", "_ms", "-v2")."""
    if new.startswith(old):
        rest = new[len(old):]
        return rest[:1] in ("_", "-", ".") or rest[:1].isupper() or rest[:1].isdigit()
    return False


# A value one keystroke from the new one ("WO-606424" for "WO-606474") is the one mistyped, as surely as another of its
# shape the correction shares two plain words with ("I gave you the wrong work order: it's WO-746505"); a name the
# correction says ("sorry, the Bremen one is ORD-4427") points at the statement that says it, near miss or not.
NEAR_MISS = 2
NAMED_THING = 3
NAMED_IN_TEXT = 4  # a named old value this long found in a statement's words names it, however its values are cut


def _score(text: str, new_values: tuple[str, ...], named: set[str], words: frozenset[str],
           vals: tuple[str, ...], cand_words: frozenset[str], cand_text: str = "") -> int:
    """How surely a correction (``text``) corrects a statement (its values and words); 0: it does not."""
    overlap = len(words & cand_words) + _kind_named(words, vals)
    if any(v in named for v in vals) or (cand_text and (_extends(new_values, cand_text) or any(
            len(n) >= NAMED_IN_TEXT and n in cand_text for n in named))):
        return 10 + overlap  # it names the old value ("7443, not 8443", "€256,000, not €265,000"), or grows its old name
    olds = [v for v in vals if v not in new_values]
    value_score = strongest = 0
    for new in new_values:
        best = 0
        for old in olds:
            if _shape(old) == _shape(new):
                best = max(best, (4 if _distinct(_shape(new)) else 2) + NEAR_MISS * _near_miss(old, new))
            elif kind(old) == kind(new):
                best = max(best, 3 if _distinct_kind(kind(new)) or _one_part_apart(old, new) or _near_miss(old, new) else 2)
        value_score += best
        strongest = max(strongest, best)
    # (two values that each only look like one of the statement's, "b2" and "7b" beside "bf16" and "340m", with
    # no word shared, are no evidence: "on second thought adamw b2=0.973 for the 7b" corrects no dtype rule)
    if value_score >= 3 and (strongest >= 3 or overlap):
        return value_score + min(overlap, 4)
    if value_score and overlap >= 1:
        return value_score + min(overlap, 4)
    if not new_values and overlap >= 2:
        return min(overlap, 4)
    if not new_values and overlap == 1 and len(words) <= 3:  # "the other Jordan", "the eu one"
        return 1
    if overlap >= 3 and any(v in vals for v in new_values):
        # the same named thing in the same words, said otherwise ("rotate svc-gate34 tonight, not at the weekend"
        # after "we rotate svc-gate34 at the weekend")
        return 3
    return 0


REPEATS = ("decision", "goal", "request")  # sections where an agent's or user's stock sentence comes back
_SIMILAR = 0.7  # content words shared (Jaccard) that make two items of one opening the same stock sentence
STOCK = 3  # a sentence said this often with other details is a stock one: only its latest stays


def collapse_repeats(merged: list[Item]) -> list[Item]:
    """The latest of items that say one stock sentence with other details ("The dip in week 20 lines up
    with Black Friday ...", "... week 33 ... Christmas ...", said ten times): of items of a section that
    open alike and share most of their words, when :data:`STOCK` or more do, only the latest stays. Two
    alike decisions are two ("cursors for the catalog export", "... for the billing export"); a user's
    instructions and plans are never collapsed."""
    buckets: dict[tuple[str, str], list[tuple[frozenset[str], list[int]]]] = defaultdict(list)
    for n in range(len(merged) - 1, -1, -1):
        item = merged[n]
        if item.section not in REPEATS or (item.section == "goal" and (not item.key.startswith("plan ") or item.user)):
            continue  # (a plan the user wrote is theirs, however alike its words: "so here's what I'm thinking — we cut
            # over on the 28th ..., and only then we touch the other robots" and "... we dry-run with dyed water ...")
        opening = " ".join(_WORD.findall(item.text.lower())[:3])
        words = content_words(item.text)
        if not opening or len(words) < 5:
            continue
        clusters = buckets[(item.section, opening)]
        for other, members in clusters[-16:]:
            if len(words & other) >= _SIMILAR * len(words | other):
                members.append(n)
                break
        else:
            clusters.append((words, [n]))
    drop = {n for clusters in buckets.values() for _, members in clusters if len(members) >= STOCK
            for n in members[1:]}
    return [item for n, item in enumerate(merged) if n not in drop] if drop else merged

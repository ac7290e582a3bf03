"""The user's words: their prose cut from what they pasted (:mod:`.ledger.prose`), read sentence by
sentence for instructions, corrections, decisions and requests, verbatim; a pasted document read whole for
its rules; pasted logs for the error they show; our own block read back by its structure."""

from __future__ import annotations

import re

from .decisions import _REASON_NEXT, _REVISION, MIND_CHANGED, SECOND_THOUGHTS, decision_item, is_decision, plan_item, plan_of, user_decides
from .identifiers import MAX_ITEM_CHARS, clip, identifier_items, mention_items
from .ledger import (APPROVAL, CORRECTION_RANK, DECIDED_RANK, RULE_RANK, SETTING_RANK, STRONG_RULE_RANK, Item, masked_key,
                     parse_items, prose, values)
from .ledger.corrections import named_old
from .ledger.items import _place
from .ledger.items import _shape as shape_of
from .ledger.segments import FROM_IT, SIGN_OFF_WORDS, TAKEN
from .markers import BLOCK_END, OWN_BLOCK
from .memos import remembered
from .outputs import _EXCEPTION_LINE, error_line, failed_run


_CORRECTION = prose._CORRECTION  # the recall tool reads corrections as the ledger does
# A short reply that accepts what the agent just proposed (not an item: merge marks the proposal decided).
_APPROVAL = re.compile(r"^\W*(?:ok(?:ay)?|agreed|yes|yep|yeah|sure|fine|perfect|great|lgtm|sounds good|sounds right|"
                       r"makes sense|go (?:ahead|with (?:it|that))|do it|do that|let'?s do (?:it|that)|works for me|"
                       r"ship it|approved|d'accord|oui|einverstanden|ja|vale|de acuerdo|s[ií]|\U0001f44d)"
                       r"(?:[\s,.!]+(?:thanks|thx|ty|go ahead|do it|let'?s go|please|agreed|sounds good))*\W*$", re.IGNORECASE)
# An assent that points back at what was proposed, in a short reply of the user's own ("yep, let's go with
# that", "Going with that.", "OK, verstanden — I'll follow that order"): it names nothing of its own, so it
# decides the proposal and is no decision of its own.
_ASSENT_BACK = re.compile(r"^\W*(?:[\w']+\W+){0,3}?(?:(?:let'?s|we'?ll|i'?ll|we will|i will|we can|then)\s+)?"
                          r"(?:go(?:ing)? (?:with|for|ahead with)|do|follow|take|pick|use|run with|stick with|approve|"
                          r"agree with|accept)\s+(?:that|it|this|those|these|yours|your (?:\w+ ){0,2}(?:plan|suggestion|"
                          r"proposal|order|approach|idea|option|recommendation)|that (?:\w+ )?(?:plan|order|approach|"
                          r"one|option|idea))\b(?: from now on| going forward| then)?\W*$",
                          re.IGNORECASE)
ASSENT_CHARS = 80
USER_NAMED = 1  # the rank of an identifier the user wrote out in their own words


# A chat relay's envelope at a line's start ("[WhatsApp 18:45] ", "[Telegram] ", "[Slack #ops, voice note] "):
# the relay's words, not the user's; left off before the user's sentences are read ("[Telegram] sorry, the
# door code is ..." is a correction). A label ("[NOTE]", "[SAFETY]") and a checkbox ("[x]") are the user's.
_ENVELOPE = re.compile(r"^[ \t]*\[(?=[^\]\n]*[a-z])(?![xX ]\])[^\]\n]{1,40}\][ \t]*", re.MULTILINE)


def is_approval(text: str) -> bool:
    """Whether a user's message only accepts what was just proposed ("ok", "agreed", "yep, let's go with
    that"): short, no value of its own, and pointing back."""
    return bool(_APPROVAL.match(text)) or (len(text) <= ASSENT_CHARS and not any(c.isdigit() for c in text)
                                           and bool(_ASSENT_BACK.match(text)))


# The name a message opens with to say whom it is for ("@copilot refund $379.50 on #460493"): no word of
# what is said, which starts after it.
_ADDRESSED = re.compile(r"^[ \t]*(?:@[\w.-]+[,:]?[ \t]+)+(?=\S)", re.MULTILINE)
_TRIVIAL = {"ok", "okay", "yes", "y", "no", "continue", "go on", "thanks", "thank you", "sure", "go", "next",
            "done", "k", "great", "perfect", "cool", "nice", "go ahead", "proceed", "ok thanks", "lgtm"}


def user_items(text: str, index: int) -> list[Item]:
    """The items of a user's message. Our own block (a prompt compacted before) is read back by its
    structure; the rest is cut into the user's prose and what they pasted (:func:`.ledger.prose.split`).
    Only the prose gives instructions, corrections and requests, sentence by sentence, verbatim; a pasted
    document is read whole for its rules, kept as the document's; pasted logs give errors marked as pasted."""
    items, plan, plan_at = _user_items(text.strip())
    found = [item._replace(src=index) for item in items]
    if plan:  # a plan the user wrote out ("plan for the cleanup: watch ...; after that ...; then ...")
        found.insert(plan_at, plan_item(plan, index, user=True))
    return found


# A user says the same again ("continue", "run it again"): a message is read once, as message 0, and its items
# are given the message's own index by user_items, which makes its plan's item too (the plan's key names it).
@remembered(256)
def _user_items(text: str) -> tuple[tuple[Item, ...], str, int]:
    """The items of the user's message ``text`` (stripped) as message 0, but its plan's: (the items, the
    plan or "", where the plan's item goes among them)."""
    index = 0
    items: list[Item] = []
    if text.startswith(OWN_BLOCK):
        # Its items stay items, now citing this message, whose archived text holds their earlier citations.
        body, text = own_block(text)
        items.extend(item._replace(src=index, first=-1, supersedes=()) for item in read_back(body))
    if is_approval(text):  # "ok", "agreed", "sounds good": what the agent proposed just before is decided
        items.append(Item(APPROVAL, APPROVAL, "", index))
        if not _APPROVAL.match(text):
            return tuple(items), "", 0  # its words point back and say nothing more
    if not text or text.lower().strip(".!? ") in _TRIVIAL or text.startswith("/context-stats"):
        return tuple(items), "", 0
    segments = prose.split(neutral(text))
    spoken, under = [], []  # the user's stretches of prose, and whether each comes right under what they pasted
    for n, s in enumerate(segments):
        if s.kind == "prose" and (part := _ADDRESSED.sub("", _ENVELOPE.sub("", s.text)).strip()):
            spoken.append(part)
            under.append(n > 0 and segments[n - 1].kind in ("document", "pasted"))
    asked: list[str] = []
    said = "\n".join(spoken)
    plan = plan_of(said) if said else ""
    for part, pasted in zip(spoken, under):  # each stretch of the user's own words on its own: what was pasted between is not theirs
        items.extend(_prose_items(part, index, asked, plan, pasted))
    if said:  # ids the user's instructions carry are in their words (and leave with them when corrected)
        # (not a value said without saying it holds, "request id req_01NEGF1S..., find it in the logs": when the
        # agent's next call takes it up, it named the work asked, and its id is one of the work's; see ledger.merge)
        ruled = "\n".join(i.text for i in items if i.section == "instruction" and not (
            i.rank == SETTING_RANK and not i.correction and not i.update and not prose.says_holding(i.text)))
        # An id the user wrote out themselves ("Luis approved CHG8371196", "runbook's here: https://...") is
        # what the work is about: given room before the ids only the agent's calls and outputs name.
        items.extend(i._replace(rank=USER_NAMED) for i in identifier_items(said, index, strong_only=False)
                     if i.key not in ruled)
        items.extend(mention_items(said, index))
    followed = _followed(said)  # "here's the runbook, treat it as policy", "apply it from now on"
    disowned = bool(_DISOWNED.search(said))  # "NOT ours, dont adopt anything from it": its rules are no one's here
    for segment in segments:
        if segment.kind == "document" and not disowned:
            items.extend(_document_rules(segment.text, index, followed))
        if segment.kind == "pasted":
            items.extend(_pasted_items(segment.text, index))
        elif segment.kind == "document":
            items.extend(identifier_items(segment.text, index, strong_only=True, weak=True)[:6])
    plan_at = len(items)  # (see user_items)
    if asked:
        items.append(Item("request", " ".join(asked)[:200].lower(), clip(_adjacent(asked, spoken), 240), index))
    # The user's words, what they pasted between them shown as a cut.
    items.append(Item("goal", "goal", "Latest request: " + clip(" [...] ".join(spoken) or text, 400), index))
    return tuple(items), plan, plan_at


_STEP = re.compile(r"^\s*(?:\d{1,2}[.)]|[-*\u2022])\s")


def _adjacent(sentences: list[str], spoken: list[str]) -> str:
    """The first sentence and those that follow it in one stretch of the user's words, up to the first
    that does not."""
    flats = [" ".join(part.split()) for part in spoken]
    out = sentences[0]
    for sentence in sentences[1:]:
        both = (prose.joined(out, sentence), f"{out} {sentence}")
        after = next((text for text in both if any(text in flat for flat in flats)), "")
        if not after:
            break
        out = after
    return out


# The close of a mail or a letter, on its own ("Best,", "Groet,", "Thanks a lot!", "Viele Grüße"): the name under
# it and it say nothing of what came before.
_SIGN_OFF = re.compile(r"^\W*" + SIGN_OFF_WORDS + r"\W*$", re.IGNORECASE)
# A sentence that says the one before it is a rule ("That is the rule from the board.", "this is our policy now").
# So is one that says it is how the team works ("that's how we do it here", "so machen wir das", "así lo hacemos aquí").
_BACK_RULE_WORDS = (r"(?:(?:that|this|it)(?:'s|\s+is|\s+was|\s+has been)\s+(?:the|our|a|house)\b[^.!?]{0,40}?\b"
                    r"(?:rule|policy|convention|standard|procedure)\b|"
                    # (said of the place, not of this once: "that's how we do it here", not "... this time", "So machen
                    # wir es." agreeing to a plan)
                    r"that'?s (?:just )?how we do (?:it|things) (?:here|around here|in this (?:team|company|repo))\b|"
                    r"so machen wir (?:das|es) (?:hier|bei uns|immer)\b|so l(?:ä|ae)uft das (?:hier|bei uns)\b|"
                    r"as[ií] (?:lo hacemos|se hace|trabajamos) (?:aqu[ií]|siempre)\b|"
                    r"(?:[ée]|eh) assim que (?:a gente faz|fazemos|trabalhamos) (?:aqui|sempre)\b|"
                    r"c'est comme [çc]a qu'on (?:fait|travaille) (?:ici|chez nous)\b|da noi si fa cos[iì]\b|"
                    r"zo doen we (?:het|dat) (?:hier|altijd)\b|tak (?:to )?u nas robimy\b)")
_BACK_RULE = re.compile(r"^\W*" + _BACK_RULE_WORDS, re.IGNORECASE)
# (or the end of the same sentence, when no capital opened a new one: "no transport leaves QAS without her OK. that's how
# we do it here.")
_BACK_RULE_END = re.compile(r"[.;!]\s+" + _BACK_RULE_WORDS + r"[^.!?]{0,30}[.!]*\s*$", re.IGNORECASE)
# An emoji a chat writes as its short code at the end of a message ("... under 210 words :tada:", ":+1:").
_EMOJI_END = re.compile(r"\s:[\w+-]{1,40}:\W{0,3}$")


# A part of what the user pasted said to hold for them ("but this one we do: ...", "disso aí, uma coisa vale pra gente
# também: ...", "ok, from this our rule: ...", "7.3 はうちのルールにする: ...").
_APPLIES_TO_US = re.compile(r"\bwe(?:'ll| will)? adopt (?:their|the|this|that|these|those)\b|"
                            r"\b(?:(?:this|that) (?:one|part|point|bit) (?:we (?:do|keep|follow)|holds|applies|stays)"
                            r"(?: (?:for|to) us)?\s*:|(?:applies|holds) (?:to|for) us|(?:our|the house) rule\s*:|vale (?:pra|para) (?:gente|n[óo]s)|vale per noi|"
                            r"gilt (?:auch )?f(?:ü|ue)r uns|(?:se )?aplica (?:a|para) nosotros|s'applique (?:à|a) nous|"
                            r"geldt (?:ook )?voor ons|dotyczy (?:te[żz] )?nas|[àa] notre compte|unsere regel|nuestra regla|"
                            r"notre r[èe]gle|nossa regra|nostra regola|onze regel|nasza zasada|"
                            r"(?:apna|apni|hamara|humara|hamari|humari) (?:rule|policy|niyam)|"  # ("isse apna rule bana lete hai: ...")
                            # (or to every case of the work: "..., e vale per tutto il pezzo: ...")
                            r"(?:(?:applies|holds) (?:to|for) (?:all|every|the whole)|vale per tutt[oaie]|vale para tod[oa]s?|"
                            r"gilt f(?:ü|ue)r (?:alle|jede[nmrs]?|das ganze)|s'applique (?:à|a) tou[st])\b[^.:;!?]{0,40}:)|うちのルール",
                            re.IGNORECASE)
# A sentence that adds another thing ("Also close PAY-3990 when you're done."): no part of the correction before it.
_ANOTHER = re.compile(r"^\W*(?:also|and|plus|btw|then|next|separately|aur|bhi)\b", re.IGNORECASE)


def _about_one(first: str, then: str) -> bool:
    """Whether two sentences are about one thing: a word of the first's besides its values is in the second (the
    setting named again: "poolSize=44 on sentinel ...", then "poolSize=56 on sentinel ...")."""
    own = {w.lower() for w in re.findall(r"[^\W\d_]{4,}", re.sub(r"\S*\d\S*", " ", first))}
    return bool(own & {w.lower() for w in re.findall(r"[^\W\d_]{4,}", then)})


# A word that says a value is not the one ("..., X se kaam nahi chalega.", "not X", "X değil"): a correction so worded
# may name the old value only.
_NEGATED = re.compile(r"\b(?:not|no|nahi|nahin|nicht|kein\w*|n[ãa]o|pas|non|niet|nie|de[gğ]il|never)\b|じゃな|ではな",
                      re.IGNORECASE)
# Of the text above ("De esto, ponle warning threshold a todo max-prefix antes del teardown"): what holds from it when it
# says it holds (see _HOLDS); not a piece of work asked of it once ("From this, make me a table of the open items").
_OF_IT = re.compile(r"^\W*" + FROM_IT + r"\b", re.IGNORECASE)
# A piece of work asked once of what was pasted ("For us: just summarize it in 3 bullets.", "In my own words: ..., open a
# ticket to track the migration.", "that one holds the lock, kill 4411.", "..., rotate the staging key now."): no rule.
_ONCE = re.compile(r"\b(?:summari[sz]e|sum (?:it )?up|summary|draft|reply|respond|answer|table|list (?:all|the|every)|"
                   r"open (?:a|the) (?:ticket|issue|pr)|(?:make|write|send|create) (?:me |us )?(?:a|an|the)|kill|restart|"
                   r"now|today|tonight|this time|this once|for now|right away|asap|"
                   r"zusammenfass\w*|fass\w* \w+ zusammen|tabelle|resumen|res[úu]me|riassunt\w*|podsumowani\w*|[öo]zet|"
                   r"hazme|fammi|zr[óo]b|resp[óo]nde\w*|responda\w*|abrir o ticket|hoy|oggi|heute|hoje|dzi[śs])\b",
                   re.IGNORECASE)
# What says a sentence holds beyond once: every one of a kind, a bound, a value set, a "no" or a "never".
_HOLDS = re.compile(r"\b(?:every|each|all|any|always|never|no|not|only|max(?:imum)?|min(?:imum)?|at (?:most|least)|until|"
                    r"todo|toda|todos|todas|cada|siempre|nunca|nada|sempre|toujours|jamais|tous|toutes|chaque|"
                    r"jede[nmrs]?|alle|immer|nie|kein\w*|ogni|tutti|tutte|mai|elke|altijd|nooit|ka[żz]d\w*|zawsze|nigdy|"
                    r"t(?:ü|u)m|asla|hep|en fazla|stays?|pinned?|bleib\w*|quedan?|fica)\b|\d", re.IGNORECASE)
# Said of what the user pasted but no rule taken from it: asked of it ("for us, can you sum it up?"), or said of a part
# that does not hold ("Lo de commit synchronize no aplica").
_ASKS = re.compile(r"\?|\b(?:no aplica|does ?n[o']t apply|not relevant|nos da igual|egal|pas concern[ée]|n[ãa]o se aplica|"
                   r"non (?:si )?applica|nie dotyczy|geldt niet)\b", re.IGNORECASE)


# A few words and a thanks after a question ("folder 3.1 thx", "the Q3 one pls"): said for the question, no setting.
_ADDENDUM = re.compile(r"^\W*(?:\S+\s+){0,4}\S*?\s*" + prose.THANKS + r"\W*$", re.IGNORECASE)


def _alike_values(after: list[str], found: tuple[str, ...], then: str) -> bool:
    """Whether a value of ``after`` (said in ``then``) may replace one of ``found``: the same shape ("maximumPoolSize=44",
    "...=56"), or an address at the same place ("marloes.visser@mvt-terminal.nl", then "send it to asmit2@mvt-terminal.nl";
    not a rule of its own about another address there, "Never email ceo@mvt-terminal.nl directly.")."""
    return bool({shape_of(v) for v in after} & {shape_of(v) for v in found}
                or (({_place(v) for v in after} & {_place(v) for v in found}) - {""} and not prose.is_rule(then)))


def _next_to(text: str, sentence: str, said: str) -> bool:
    """Whether ``sentence`` comes right after ``text`` in ``said``, on its line, or on the next as a list's next
    item ("1. rodar a suíte de e2e", then "2. trocar o splash ..."): not past a sentence left out ("..., ok?"), nor
    onto another line of its own (the next ask), nor into the next paragraph."""
    tail, head = text[-40:], sentence[:40]
    return prose.joined(tail, head, said) in said or (bool(_LIST_ITEM.match(head)) and f"{tail}\n{head}" in said)


_LIST_ITEM = re.compile(r"\s*(?:\d{1,2}[.)]|[-*\u2022])\s")


def _prose_items(said: str, index: int, asked: list[str], plan: str = "", under_paste: bool = False) -> list[Item]:
    """Instructions and corrections of the user's own words, a sentence each; what was only asked goes to
    ``asked``. A correction without a value of its own takes the sentence after it ("Sorry, wrong port.
    Use 7443."), which says what it corrects to. ``under_paste``: the words come right under what the user
    pasted, whose first sentence may say what holds from it ("Czyli u nas: przypinamy psp-sdk 5.18.1 ...")."""
    items: list[Item] = []
    parts: list[str] = []
    backed: set[int] = set()  # the parts a sentence after them says are a rule
    for sentence in prose.sentences(said):
        if sentence.lower().strip(".!? ") in _TRIVIAL:
            continue
        if parts and _BACK_RULE.match(sentence) and len(parts[-1]) <= MAX_ITEM_CHARS // 2:
            parts[-1] = prose.joined(parts[-1], sentence, said)  # "That is the rule from the board.": the sentence before is the rule
            backed.add(len(parts) - 1)
        else:
            parts.append(sentence)
    skip = False
    open_item = -1  # the instruction a plain statement after it goes on ("Only Python 3.11. No network calls.")
    joined = 0
    for n, sentence in enumerate(parts):
        if skip:
            skip = False
            continue
        if _SIGN_OFF.match(sentence):  # "Groet," "Thanks a lot!": a letter's close, no words of a rule before it
            open_item = -1
            continue
        found = values(sentence)
        kind = prose.kind_of(sentence, found)
        if kind in ("request", "setting") and not _ASKS.search(sentence) and (
                n in backed or _BACK_RULE_END.search(sentence) or (under_paste and not _ONCE.search(sentence) and (
                    (not n and (TAKEN.match(sentence) or _OF_IT.match(sentence)) and _HOLDS.search(sentence))
                    or _APPLIES_TO_US.search(sentence)))):
            # said to be how the team works ("no transport leaves QAS without Nazlı's OK. that's how we do it here."), or
            # what holds for the user's own work of the text above ("Eso sí, ponle warning threshold a todo ...")
            kind = "rule"
        # A rule ending in a chat's emoji (":tada:") ends in no colon; a value said so may still lead into a paste.
        introduces = (_EMOJI_END.sub("", sentence) if kind == "rule" else sentence).endswith(":")
        if introduces and kind in ("rule", "setting") and not prose.is_strong_rule(sentence):
            kind = "request"  # "fyi, here's what happened:" introduces what follows (pasted), it rules nothing
        if kind == "rule" and _DISOWNED.search(sentence):
            kind = "request"  # "NOT ours, dont adopt anything from it": what was pasted is not to be followed, no rule of the work
        # (a choice whose reason is the sentence after it: "we'll terminate the Lumen agreement with 16 months'
        # notice. reason: a shorter period risks a claim")
        decided = is_decision(sentence) or user_decides(sentence) or (n + 1 < len(parts) and bool(_REASON_NEXT.match(parts[n + 1]))
                                            and is_decision(prose.joined(sentence, parts[n + 1], said)))
        if kind == "setting" and (decided or MIND_CHANGED.search(sentence)):
            kind = "request"  # a choice the user makes ("ok, decided: we'll cordon ip-..."): a decision, below
        if kind == "setting" and n and parts[n - 1].rstrip().endswith("?") and _ADDENDUM.match(sentence):
            kind = "request"  # "which contracts have CoC rights? folder 3.1 thx": where to look, a part of the ask
        if kind in ("setting", "rule") and plan and sentence in plan and not prose.is_strong_rule(sentence):
            # a step of the plan the message writes out ("2. move X to the key pool on day 9", "first I draft the
            # EN, then you freeze strings on l10n/x-freeze, then ..."): the plan holds it; a rule that forbids stays
            kind = "request"
        if kind == "correction" and found and n and items and items[-1].section == "instruction" and (
                not items[-1].correction and items[-1].text.endswith(parts[n - 1][-40:])
                and set(found) <= named_old(sentence) and len(items[-1].text) <= MAX_ITEM_CHARS // 2):
            # A correction that names only the old value says the new one in the sentence before it ("チケット番号
            # SAF-42701 だった。SAF-42710 じゃない", "The ticket is SAF-42701. SAF-42710 was wrong."): the two are one correction.
            text = prose.joined(items[-1].text, sentence, said)
            items[-1] = Item("instruction", text.lower(), clip(text), index, corrects=values(text), rank=CORRECTION_RANK)
            open_item = -1
            continue
        if kind == "correction":
            # A correction without a value says what it corrects to in the sentence after it ("Sorry, wrong
            # port. Use 7443.", "Scratch that. Instead, let's ship on Friday."); so does one that names the old value
            # only, with a value of its shape after it ("nahi yaar, maximumPoolSize=44 ... se kaam nahi chalega.
            # maximumPoolSize=56 ... pe switch karte hai.").
            after = [v for v in values(parts[n + 1]) if v not in found] if found and n + 1 < len(parts) else []
            if n + 1 < len(parts) and len(parts[n + 1]) <= 240 and not prose.is_correction(parts[n + 1]) and (
                    not found or (_alike_values(after, found, parts[n + 1]) and _NEGATED.search(sentence)
                                  and _next_to(sentence, parts[n + 1], said) and not _ANOTHER.match(parts[n + 1])
                                  and _about_one(sentence, parts[n + 1]))):
                sentence, skip = prose.joined(sentence, parts[n + 1], said), True
                found = values(sentence)
            if not found and n and items and items[-1].section == "instruction" and items[-1].correction and (
                    items[-1].text.endswith(parts[n - 1][-40:])) and len(sentence.split()) >= 3:  # (not "Sorry!")
                # ... or in the correction just before it, which it goes on ("ah não, 17.12.2025! I had the wrong day.")
                text = prose.joined(items[-1].text, sentence, said)
                items[-1] = items[-1]._replace(key=text.lower(), text=clip(text))
                continue
            items.append(Item("instruction", sentence.lower(), clip(sentence), index, corrects=found,
                              rank=CORRECTION_RANK))
            open_item = -1
        elif kind in ("rule", "setting"):
            rank = (STRONG_RULE_RANK if prose.is_strong_rule(sentence) else RULE_RANK + bool(found)) if kind == "rule" \
                else SETTING_RANK
            items.append(Item("instruction", masked_key(sentence), clip(sentence), index, rank=rank,
                              corrects=found, update=prose.is_update(sentence)))
            open_item, joined = len(items) - 1, 0
        elif open_item >= 0 and not prose.is_request(sentence) and not prose.is_terse_ask(sentence) \
                and len(sentence) <= 200 and not introduces and not SECOND_THOUGHTS.search(sentence) \
                and _next_to(items[open_item].text, sentence, said):
            # (a sentence that ends on ":" introduces what the user pasted next: "logs from export-svc earlier:")
            last = items[open_item]  # the words that go on from a rule are the rule's (adjacent, verbatim)
            text = prose.joined(last.text, sentence, said)
            items[open_item] = last._replace(key=masked_key(text), text=clip(text))
            joined += 1
            if joined >= 2:
                open_item = -1
        elif decided or (_REVISION.search(sentence) and not prose.is_request(sentence)):
            # The user's own choice, or a choice taken back for another ("scratch what we said before,
            # keep March in"): it revises the decision it is about. A revision that says only that
            # ("scrap what we said earlier, Luis vetoed it.") takes the sentence after it, the new choice.
            if n + 1 < len(parts) and len(parts[n + 1]) <= 240 and not prose.is_correction(parts[n + 1]) and (
                    not is_decision(sentence) or _REASON_NEXT.match(parts[n + 1])):
                # (a decision's reason said after it, "decision: winsorize ... reason: a handful of B2B orders
                # dominate the mean", is the decision's: no value of its own)
                sentence, skip = prose.joined(sentence, parts[n + 1], said), True
            items.append(decision_item(sentence, index)._replace(rank=DECIDED_RANK, user=True))
            open_item = -1
        else:  # asked, or too short to be anything ("mem ok?"): a rule goes on only in the sentence right after it
            if len(sentence) >= 8:
                asked.append(sentence)
            open_item = -1
    return items


# The user says to work by what they paste ("treat it as policy", "please follow it", "apply it from now on",
# "work by it from today", "the doc we're supposed to follow"): every statement of it is a rule of theirs.
_FOLLOW = re.compile(r"\b(?:follow(?:ing)?(?!\s+up\b)|apply (?:it|this|these|them|that)|work by|go by|stick to|comply with|adhere to|abide by|"
                     r"treat (?:it|this|these|them) as|(?:is|are) how we (?:do|work)|from now on|from here on|from today|"
                     # in the user's other languages: from now on, to the letter, these are our rules (not Portuguese
                     # "segue isso:", which hands over what follows; a "not" before it: see _followed)
                     r"a partir de (?:agora|hoje|ahora|hoy)|daqui (?:pra|para) frente|de ahora en adelante|desde ahora|"
                     r"(?:segu\w+|sig\w+|cumpr\w+|rispett\w+)[\w ]{0,20}? (?:[àa] risca|al pie de la letra|alla lettera)|"
                     r"(?:s[ãa]o|son|sono) (?:as |las |le )?(?:nossas|nuestras|nostre) (?:regras|reglas|normas|regole)|"
                     r"[àa] partir de maintenant|d[ée]sormais|dor[ée]navant|ab (?:jetzt|sofort|heute)|d'ora in (?:poi|avanti)|"
                     r"da (?:ora|adesso|oggi|qui) in (?:poi|avanti)|de aqu[ií] en adelante|daqui em diante|vanaf (?:nu|vandaag)|voortaan|od (?:teraz|dzi[śs]|dzisiaj)|"
                     r"fr[åa]n och med (?:nu|idag|i dag)|h[äa]danefter)\b", re.IGNORECASE)
# A "not" just before the words that would say to follow ("não são as nossas regras", "não precisa seguir à risca",
# "no son nuestras reglas", "non sono le nostre regole"): not followed.
_NOT_BEFORE = re.compile(r"\b(?:n[ãa]o|no|non|not|nicht|niet|nie|inte|never|don'?t|doesn'?t)\b[^.;:!?\n]{0,25}$", re.IGNORECASE)


def _followed(said: str) -> bool:
    """Whether the user says to work by what they pasted (:data:`_FOLLOW`, no "not" just before it)."""
    return any(not _NOT_BEFORE.search(said, max(0, m.start() - 30), m.start()) for m in _FOLLOW.finditer(said))


# A document the user says is not theirs to work by: another team's or a competitor's guide pasted to compare.
_DISOWNED = re.compile(r"\b(?:not ours|not our (?:guide|style|policy|rules?|docs?|runbook|standard)|"
                       r"(?:don'?t|do not|dont|never|please don'?t) (?:adopt|follow|apply|copy) (?:anything|any of|it|this|these|them|its)|"
                       # "we don't follow it but good to know where they differ", "we don't use their definitions"
                       r"(?:we|i) (?:don'?t|do not|dont|never) (?:follow|use|apply|go by) (?:it|this|that|these|those|them|their|his|her)\b|"
                       r"(?:just |only )?for reference only|not (?:a |our )?(?:policy|rules?) (?:for|of) us)\b", re.IGNORECASE)
# A statement of a followed document that rules nothing: an example, a greeting or a reply it holds as a template
# ("Thanks for the details, Arjun. I've asked ..."), a note, a question, its metadata ("Owner: Support Ops").
_NO_RULE = re.compile(r"^\W*(?:e\.g\.|example|for example|thanks|thank you|hi\b|hello|dear|regards|note:|internal note|"
                      r"i\b|i'|we'(?:ve|ll|re)|[\w ]{1,24}:\s)", re.IGNORECASE)
# A norm a policy states in the passive, for what a bound or a quantifier picks out ("Service credits above 22% of
# the monthly fee are approved by the Head of Support", "Any BX-200 still on firmware older than 5.5 is escalated
# to Tier 2 ..."): in a document the user works by, a rule like any said with "must".
_NORM = re.compile(r"\b(?:(?:any|every|each|all|no)\b|(?:above|over|below|under|more than|less than|older than|newer than|"
                   r"or more|or less|at least|at most)\b).*\b(?:is|are)\s+(?:only\s+|always\s+|never\s+|not\s+)?\w+(?:ed|en)\b|"
                   r"\b(?:is|are)\s+(?:only\s+|always\s+|never\s+|not\s+)?\w+(?:ed|en)\b.*\b(?:for|of|on|in) (?:every|each|all|any)\b|"
                   # a bound ("The maximum term of confidentiality obligations is 4 years from disclosure", "no interview
                   # loop lasts more than 4 hours in total"), what holds only under a condition ("on-site audits only
                   # after a personal data breach"), and where a kind of thing goes ("Unrealised FX differences ... are
                   # booked to 6681-57")
                   r"\b(?:maximum|minimum|max|min|limit|cap|ceiling|deadline)\b[^.;!?]{0,60}?\b(?:is|are)\s+[^.;!?\d]{0,20}\d|"
                   r"\bno\b[^.;!?]{0,60}?\b(?:more|longer|later|fewer|less|bigger|larger|older) than\s+[^.;!?\d]{0,12}\d|"
                   r"\bonly (?:after|before|with|when|if|once|during|within|via|through|by)\b|"
                   r"\b(?:is|are)\s+(?:\w+ly\s+)?\w+(?:ed|en)\s+(?:to|into|in|on|under|within|at|against)\s+[^.;!?\s]*\d",
                   re.IGNORECASE)
FOLLOWED_RULES = 60  # the statements of a followed document kept, its rules first (room last: see weak)


def _document_rules(text: str, index: int, followed: bool = False) -> list[Item]:
    """The rules of a document the user pasted (a spec, a runbook, a style guide), read whole, but its
    code blocks. In a document the user says to work by (``followed``), each other statement is a rule too,
    kept weak (room after the rest: the words of a rule were not needed to say it)."""
    items = []
    said: set[str] = set()  # a runbook says a rule in more than one section: once is enough (and the cap counts rules)
    stated: list[Item] = []
    fence = False
    lines = text.splitlines()
    if lines and lines[0].lstrip().startswith(("```", "~~~")):
        # A document pasted inside one fence (a runbook in ```...```): the fence is its frame, not a code
        # block of it; its inner fences are still code.
        lines = lines[1:-1] if len(lines) > 1 and lines[-1].lstrip().startswith(("```", "~~~")) else lines[1:]
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
            continue
        if fence or prose.line_is_pasted(line):
            continue
        heading = line.lstrip().startswith("#")  # "## 3. Appliance tickets" names a part: no statement of it
        for sentence in prose.sentences(line.strip(" -*#>\t")):
            if not 12 <= len(sentence) <= MAX_ITEM_CHARS or sentence in said:
                continue
            if prose.is_rule(sentence) or (followed and not heading and _NORM.search(sentence)):
                said.add(sentence)
                items.append(Item("docrule", masked_key(sentence), clip(sentence, 300), index, rank=RULE_RANK))
            elif followed and not heading and len(sentence.split()) >= 4 and not _NO_RULE.match(sentence) \
                    and not prose.is_request(sentence):
                said.add(sentence)
                stated.append(Item("docrule", masked_key(sentence), clip(sentence, 300), index, rank=RULE_RANK - 1,
                                   weak=True))
    return items[:40] + stated[:max(0, FOLLOWED_RULES - min(40, len(items)))]


SHORT_PASTE = 600  # a paste this short that says something failed is one error
_SHORT_ERROR = re.compile(r"error|fail|refused|rejected|denied|not found|timed? ?out|unavailable|invalid", re.IGNORECASE)


def _pasted_items(text: str, index: int) -> list[Item]:
    """What pasted material is evidence of: the error it shows, marked as pasted, and its strong ids (kept
    when prose or a later call names them too)."""
    items = []
    line = error_line(text, named_only=True) if failed_run(text) or _EXCEPTION_LINE.search(text) or "FAIL" in text else ""
    if not line and len(text) <= SHORT_PASTE and _SHORT_ERROR.search(text) and not any(
            map(prose.line_is_pasted, text.splitlines())):
        # a short paste of words, not output, that says something failed ("screenshot text:" then a mail
        # server's "550 5.1.1 ... Recipient address rejected"): its longest line that says so is the error,
        # not a quoted mail's "> On Sat, Jun 08, ... wrote:" above it (a log's lines say at which level they
        # were written, read above)
        line = max((part.strip(" \t>") for part in text.splitlines() if _SHORT_ERROR.search(part)), key=len)
    if line:
        items.append(Item("error", f"pasted\n{line}", clip(line, 400) + " (pasted)", index))
    items.extend(identifier_items(text, index, strong_only=True, weak=True)[:6])
    return items


def own_block(text: str) -> tuple[str, str]:
    """(the body of our own block, the user's words after it), read by structure: the block ends at the
    first line that is our end marker alone; lines inside it that are not the ledger's own (a heading, an
    item, a left-out line, the focus line) are not items. Without an end line, the whole text is the
    block and nothing is the user's."""
    lines = text.split("\n")
    for n, line in enumerate(lines[1:], start=1):
        if line.strip() == BLOCK_END:
            return "\n".join(lines[1:n]), "\n".join(lines[n + 1:]).strip()
    return "\n".join(lines[1:]), ""


_MARKERS = re.compile(rf"\[(?=(?:{re.escape(OWN_BLOCK[1:])}|{re.escape(BLOCK_END[1:])}))", re.IGNORECASE)


def neutral(text: str) -> str:
    """``text`` with the ledger's own markers disarmed ("[end of ledger]" -> "(end of ledger]"): words a
    message holds never open or close a block when the block is read back."""
    return _MARKERS.sub("(", text) if "[" in text else text


def read_back(body: str) -> list[Item]:
    """The items of our own block's body, the user's words ranked again as when they were said (a block
    does not write ranks): a line that cites what it superseded is a correction."""
    out = []
    for item in parse_items(body):
        if item.section == "instruction":
            kind = "correction" if item.supersedes else prose.kind_of(item.text, values(item.text))
            rank = {"correction": CORRECTION_RANK, "setting": SETTING_RANK}.get(
                kind, STRONG_RULE_RANK if prose.is_strong_rule(item.text) else RULE_RANK)
            item = item._replace(rank=rank, corrects=values(item.text), update=prose.is_update(item.text))
        elif item.section == "docrule":
            item = item._replace(rank=RULE_RANK)
        out.append(item)
    return out

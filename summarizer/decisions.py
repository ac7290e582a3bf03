"""Decisions and plans in prose: a choice said with its reason or its alternative ("we'll guard the map
with a mutex, because ..."), a choice that revises an earlier one ("scrap that; let's ..."), and a plan
written out in steps ("first ..., then ..."). Pure functions of text."""

from __future__ import annotations

import re

from .identifiers import clip
from .ledger import Item
from .memos import remembered


# A decision: a marker that says so, or a "use/keep/switch" that gives a reason or an alternative
# (tool-use narration such as "I'll use grep to ..." is not a decision).
# A choice gone back to, in the languages beside English's "going back to" ("on revient à GameAnalytics", "volvemos a
# Postgres", "voltamos pro Redux", "zurück zu GodotPhysics"): a decision that revises the first.
_GONE_BACK_TO = (r"on (?:revient|repart) (?:à|a|sur)\b|volvemos a\b|voltamos (?:a|ao|à|pro|pra)\b|zur(?:ü|ue)ck zu\b|"
                 r"torniamo a\b")
_DECISION = re.compile(
    r"\b(?:decision(?: time)?\W{0,3}:|d[ée]cision\s*:|decided|decide to|going with|go with|opted for|opting for|settled on|we agreed(?! on\s*(?:[^\w\s]|(?:ty|thx|thanks|pls|please)\b|$))|"
    r"chose|choosing|the (?:plan|fix) is(?!\s+(?:in|on|at|under|below|above|attached|here|there|fine|ok|okay|good|done|ready|"
    r"set|written|still|now|the same)\b)|(?<!\bno )(?<!\bno single )(?<!\bno clear )(?<!\bnot the )root cause|"
    r"changing my mind|my vote is|prefer\b.{1,80}\bover\b|lock(?:ing)? in\b|(?<=\w )(?<!what )it is(?=\s*(?:[(.;,!\u2014\u2013]|- |$))|"
    # a choice changed back or said as a change on a named thing ("we're going back to invoiced spend for CAC", "change
    # on the LTV model: BG/NBD instead of Pareto/NBD", "u-turn: ...")
    r"going back to\b|^\W*(?:[\w ]{1,20}:\s*)?(?:change|u-turn) on (?:the )?[^:\n]{1,60}:\s|^\W*u-turn\s*:|"
    # a choice said to be final ("presigned PUT uploads for receipts, final answer", "X it is, that's final")
    r"[,;\u2014\u2013-]\s*(?:final answer|that'?s final|final call|final decision)\W*$|"
    # news on one named thing that says where it now goes ("Update on agencies: the 2 SRE roles go to Rete Talenti")
    r"^\W*(?:(?:quick|small|an?)\s+)?update on\b[^:\n]{1,60}:\s[^.;!?]{0,80}\b(?:go(?:es)? to|goes with|we(?:'ll| will)|instead)\b|"
    # the same said in other languages ("Decidido: ...", "fechado: Jotai pra estado global", "tá decidido", "wir nehmen
    # X statt Y", "on part sur X", "abbiamo deciso", "就用 X", "X로 하자")
    # (a label that opens the choice, a verb that says it was made, "..., tá decidido" after it; not "Ok, queda
    # decidido." alone nor "no pasos ya decididos")
    r"^\W*(?:decidid[oa]|decid[ií]|decidimos|fechado|beschlossen|entschieden|d[ée]cid[ée]|deciso)\s*[:\u2014-]\s*\S|"
    r"\b(?:decidimos|decid[ií]|decidiu|decidiram|abbiamo deciso|ho deciso|on a d[ée]cid[ée]|j'ai d[ée]cid[ée]|"
    r"nous avons d[ée]cid[ée]|wir haben (?:uns )?(?:entschieden|beschlossen))\b(?!\s+(?:no|nada|nichts|rien|niente)\b)|"
    r"\w{3,}[^,.;!?]*,\s*(?:t[áa]|est[áa]|queda|fica) decidid[oa]\b|mudei de ideia|cambi[ée] de (?:idea|opini[óo]n)|"
    r"nos quedamos con\b|vamos con\b|bora de\b|on part sur\b|on part l[àa][- ]dessus\b|"
    # (made, or a choice gone back to: "j'ai tranché pour la télémétrie: ...", "on revient à GameAnalytics", "volvemos a
    # Postgres", "voltamos pro Redux", "zurück zu GodotPhysics")
    r"(?:j'ai|on a|nous avons) tranch[ée]\b|" + _GONE_BACK_TO + "|"
    # a change of plan said as a label, then one thing instead of another ("changement de plan: GodotSteam au lieu de
    # Facepunch.Steamworks", "cambio de planes: X en vez de Y")
    r"^\W*(?:chang\w*|cambi\w*|mudan\w*|\w*(?:ä|ae)nderung|new|nouveau|nuevo|novo)(?: (?:de|of|di|do|des))? "
    r"(?:plan|plans|planes|planos|programma)\w*\s*:\s*[^.;!?\n]{1,60}\b(?:instead of|au lieu de|en lugar de|en vez de|em vez de|"
    r"ao inv[ée]s de|statt|anstatt|invece di)\b|"
    # Japanese: a choice said as what it will be ("やっぱり MPPI にします", "DWB で行きます", "Cyclone に決めました")
    r"にします|にしよう|にしました|にしましょう|で行きます|で行こう|で行きましょう|でいきます|でいこう|でいきましょう|に決め|"
    # a choice taken ("fine, moonrepo it is for the task runner for web/", "lass uns valibot nehmen für form validation",
    # "let's pick Grafana Cloud for the dashboards"; not "let's take a look")
    # (not "here it is in the logs", "yes it is in the config", "let's take a backup ...", "lass uns eine Pause nehmen")
    r"^\W*(?:(?:fine|ok|okay|alright|right|so|then|good)\W+)?(?!(?:here|there|yes|yeah|yep|no|this|that|what|where|so|it)\b)"
    r"[\w.@/+-]+(?: [\w.@/+-]+)? it is (?=for\b)|"
    r"\blass(?:t)? uns\b[^.;!?]{1,60}\bnehmen (?=f(?:ü|ue)r\b|statt\b|als\b)|"
    r"\blet'?s (?:take|pick)\b [\w.@/+-]+(?: [\w.@/+-]+)? for (?:the )?(?![^.;!?]*\b(?:tomorrow|later|today|now)\b)|"
    # Indonesian and Malay ("keputusan gue: spot instances for ...", "oke kita pakai LightGBM buat ETA v3", "kita sepakat ...")
    # (not a question, asked without its mark: "oke kita pakai yang mana nih", "kita sepakat gak ...", nor a condition or
    # what is not decided yet: "kalau kita sepakat, ...", "belum diputuskan ...")
    r"\bkeputusan(?:nya| gue| gw| saya| kita| aku)?\s*:\s*\S|\b(?:oke|ok|fix|final(?:nya)?|jadi(?:nya)?),?\s+kita "
    r"(?:pakai|pake|pilih|ambil|jalan (?:dengan|pakai)|lanjut (?:dengan|pakai))\b"
    r"(?![^.;!?]*\b(?:mana|apa|gimana|bagaimana|gak|nggak|ngga|kah|dari mana)\b)|"
    r"^\W*(?:(?:oke|ok|jadi|fix)\W+)?kita (?:putuskan|memutuskan|sepakat)\b(?![^.;!?]*\b(?:gak|nggak|ngga|ga|tidak|kah|apa)\b)|"
    r"\b(?:sudah|udah|telah) diputuskan\b|\bdiputuskan\s*:|"
    # Polish ("Decyzja: ...", "Zostajemy przy number_of_replicas=3 ...", "Idziemy w fuzziness od 7 znaków ...",
    # "zdecydowaliśmy, że ..."; not where we go, "idziemy w sobotę", "idziemy na lunch")
    # (a thing chosen, named by a value or a code's name: not "idziemy w góry", "zostajemy przy stole")
    r"^\W*decyzja\s*:\s*\S|\b(?:zdecydowa[łl]|postanowi[łl])(?:em|am|i[śs]my|y[śs]my)\b|"
    r"\b(?:zostajemy przy|idziemy (?:w|z)) (?=[^.;!?\n]{0,80}(?:\d|`|\w[._/=]\w))|"
    # Dutch ("Besluit voor de PLC-events: we doen ...", "We gaan voor tijdslots van 30 minuten ...", "we kiezen voor X",
    # "we hebben besloten ...", "we blijven bij X"; not "we gaan voor de lunch")
    # (not someone else's, "Beslissing van de klant: ...", nor "voor de zekerheid" (to be safe), "voor nu" (for now),
    # "voor vijf uur" (before five), "we blijven bij de klant")
    r"^\W*(?:besluit|beslissing)\b(?! van\b)[^:\n]{0,40}:\s*\S|\b(?:we|ik) (?:hebben|heb) besloten\b|\bbesloten\s*:|"
    r"\bwe (?:gaan|kiezen) voor (?!(?:de|het|een) (?:lunch|koffie|borrel|dag|avond|nacht|weekend|zekerheid)\b|"
    r"(?:nu|zo|straks|morgen|vandaag|vanavond|de zekerheid|\d)|\w+ uur\b)|\bknoop (?:is )?doorgehakt\b|"
    # (an earlier choice said to change: "Changing my earlier call: num_leaves=31 instead of num_leaves=63")
    r"\bchang(?:ing|ed?) my (?:earlier |previous |first )?(?:call|choice|decision|pick)\s*:|"
    r"wir nehmen\b[^.;!?]{1,80}\bstatt\b|wir bleiben bei\b|andiamo con\b|\bvi k[øo]rer med\b|\u51b3\u5b9a|\u5c31\u7528|\u6c7a\u5b9a|\u6c7a\u3081\u305f|\uacb0\uc815|\ub85c \ud558\uc790|\ub85c \uac00\uc790)"
    # (Korean's and Japanese's endings written against a Latin name, no space between: "tip reuse within a replicate로
    # 가자", "DWBで行きます")
    r"|(?<=[A-Za-z0-9)])(?:\uc73c?\ub85c (?:\uac00\uc790|\ud558\uc790)|\u306b\u3057\u307e\u3059|\u3067\u884c\u304d\u307e\u3059|\u3067\u3044\u304d\u307e\u3059)",
    re.IGNORECASE)
# A choice said in the first person ("we'll guard the map with a mutex", "I'd cache the settings", "my vote is
# to ...", "we should give the job its own pool"), a decision when it gives a reason or an alternative; not
# when what follows is the agent's next step (read, look, check, run, ...).
_DECISION_WEAK = re.compile(
    r"(?:\b(?:we|i|let)(?:['\u2019](?:ll|s|d|m going to|re going to)\b| will| would| should| are going to)|"
    # (Dutch "laten we ...", let's; not a look taken, "laten we even kijken")
    r"\blaten we\b(?!\s+(?:even |eens |nog )?(?:kijken|checken|zien|testen|proberen|wachten|eerlijk)\b)|"
    r"\bmy vote is to|\bwe should|\bof the (?:two|three) options|\bthe approach is to|\bswitch(?:ed)? to|"
    r"^\W*(?:ok,? |okay,? |alright,? )?so we (?=\w+ )|[,;:]\s+so we (?!(?:know|see|have|had|did|are|were|got|can|could|need|needed|may|might)\b)(?=\w+ )|\bi (?:think|guess|reckon|'?d say) we(?= \w+ )|\bmy (?:suggestion|recommendation)\b|\bi (?:suggest|recommend)\b)"
    r"(?!\s+(?:need|have|want|be|read|look|check|open|run|grep|search|take|start|reproduce|inspect|investigate|"
    r"try|see|find|dig|trace|profile|also|keep (?:going|looking)|get|go ahead|continue|let you know|update you|"
    r"come back|circle back|look into|follow up|take a look|double-check|report back)\b)",
    re.IGNORECASE)
_DECISION_WORDS = ("final", "decision", "decided", "decide to", "going with", "go with", "opted for", "we agreed",
                   "opting for", "settled on", "chose", "choosing", "the plan is", "the fix is", "root cause", "prefer",
                   "changing my mind", "my vote is", "lock in", "locking in", " it is", "decid", "fechado", "mudei de ideia",
                   "cambi", "quedamos con", "vamos con", "bora de", "on part sur", "on part l", "entschieden", "beschlossen", "wir nehmen",
                   "wir bleiben", "deciso", "andiamo con", "update on", "going back to", "change on", "u-turn", "décision",
                   "tranch", "revient", "repart", "volvemos", "voltamos", "zurück zu", "zurueck zu", "torniamo", "instead of",
                   "au lieu de", "en lugar de", "en vez de", "em vez de", "invés de", "statt", "invece di", "lass uns", "lasst uns",
                   "let's take", "lets take", "let's pick", "lets pick", "korer med", "keputusan", "kita pakai", "kita pake",
                   "kita pilih", "kita ambil", "kita jalan", "kita lanjut", "putuskan", "sepakat", "decyzja", "zdecydowa",
                   "postanowi", "zostajemy przy", "idziemy", "besluit", "beslissing", "besloten",
                   "we gaan voor", "we kiezen voor", "knoop", "changing my", "changed my", "change my")
_DECISION_WEAK_WORDS = ("we", "i'", "i ", "let", "laten we", "my vote", "switch", "options", "approach", "my suggestion",
                        "my recommendation", "suggest", "recommend")


@remembered(1_024)
def may_decide(text: str) -> bool:
    """Whether a text holds a decision marker or a "use/keep/switch": its sentences are worth reading."""
    if not text.isascii():
        return bool(_DECISION.search(text) or _DECISION_WEAK.search(text))
    low = text.lower()
    return bool((any(word in low for word in _DECISION_WORDS) and _DECISION.search(text))
                or (any(word in low for word in _DECISION_WEAK_WORDS) and _DECISION_WEAK.search(text)))


# Second thoughts ("voltei atrás: esquece o GraphQL, REST mesmo com DRF", "pensándolo mejor, ...", "bij nader inzien
# ...", "po namyśle ...", "ripensandoci ...", "tout bien réfléchi ..."): a choice made again.
_SECOND_THOUGHTS = (r"voltei atr[áa]s|pensando (?:bem|melhor)|pens[áa]ndolo (?:bien|mejor)|bij nader inzien|po namy[śs]le|"
                    r"ripensandoci|a pensarci bene|ci ho ripensato|tout bien r[ée]fl[ée]chi|r[ée]flexion faite|apr[èe]s r[ée]flexion|vazge[çc]tim|"
                    # the matter thought over again ("hab nochmal drüber nachgedacht: otter statt ristretto ...",
                    # "thought it over: ...", "ved nærmere eftertanke ...", "lo pensé mejor, ...", "다시 생각해보니 ...")
                    r"(?:hab|habe|hab's)\s+(?:(?:es|das|mir|ich)\s+)?(?:nochmal|noch mal|nochmals|noch einmal)\s+(?:(?:dr(?:ü|ue)ber|dar(?:ü|ue)ber)\s+)?nachgedacht|"
                    r"nach (?:nochmaligem (?:ü|ue)berlegen|reiflicher (?:ü|ue)berlegung)|"
                    r"(?<!n't )(?<!not )(?<!never )thought (?:it|this|that) (?:over|through)(?! yet)|"
                    r"(?<!n't )(?<!not )thought about it (?:again|more|some more|overnight)(?!\W+(?:still )?(?:not sure|unsure|undecided))|"
                    r"slept on it|"
                    r"had another think|heb er nog eens over nagedacht|ved n[æe]rmere eftertanke|vid n[äa]rmare eftertanke|"
                    r"ved n[æe]rmere ettertanke|lo pens[ée] mejor|lo he pensado mejor|pensei melhor|przemy[śs]la[łl]e[mś]|"
                    r"t[æa]nkt over det igen|tenkt over det igjen|t[äa]nkt om|ombestemt (?:mig|meg)|[äa]ndrat mig|"
                    r"다시 생각해\s?(?:보니|봤는데)|考え直し(?:て|た|ました)")
SECOND_THOUGHTS = re.compile(r"\b(?:" + _SECOND_THOUGHTS + r")(?!\w)", re.IGNORECASE)
_REVISION = re.compile(r"\b(?:scrap (?:that|this)|scratch (?:that|this)|changing my mind|changed my mind|on second thought|"
                       r"on reflection|thinking about it (?:more|again)|come to think of it|re-?thought (?:it|this|that)\b|"
                       r"rethinking (?:it|this|that)\b|"
                       r"(?:scrap|scratch|forget|ignore|drop|disregard) what (?:we|I) (?:said|agreed|decided|discussed)|"
                       r"(?:scrap|scratch|forget|drop) (?:the|our|my) (?:earlier|previous|old|first) (?:plan|idea|approach|decision)|"
                       r"(?:scrap|scratch|ditch) the \w+|after all|let'?s revisit|revisiting|instead(?=[,.;!]|$)|new plan|"
                       r"change of plan|actually,? let'?s|going back to|change on\b|u-turn|"
                       # (Dutch: "Ik kom terug op de gate-afspraken: toch niet tijdslots van 20 minuten ...", the choice
                       # named and taken back after the colon; not "Ik kom even terug op het incident van 12 maart: ...")
                       r"\bik kom (?:er )?(?:nog )?(?:even )?terug op\b[^:\n]{0,60}:\s*toch\b|"
                       + _GONE_BACK_TO + r"|au lieu de\b|en lugar de\b|en vez de\b|em vez de\b|ao inv[ée]s de\b|invece di\b|"
                       # the old choice dropped first ("scrap a Bayesian readout with a 2% ROPE, CUPED ... it is")
                       r"^\W*(?:(?:ok|okay|so|right)\W+)?(?:scrap|ditch)(?=\s+\S)|"
                       # a date moved ("moving it, we run the Polish off-cycle payroll on Wednesday 2 July")
                       r"moving it|moved it|rescheduling|rescheduled|postponing|postponed|pushing it (?:back|out)|"
                       r"bringing it forward|"
                       # in other languages: "Planänderung: ZMS on the 48 KB partition, weil ..."
                       r"plan(?:ä|ae)nderung|planwijziging|changement de plan|cambio de planes?|cambio di programma|"
                       r"andere plannen|doch lieber|"
                       + _SECOND_THOUGHTS + "|"
                       # Japanese: "after all", and a choice dropped ("Regulated Pure Pursuit はやめます. DWB で.")
                       r"やっぱり|やっぱ|[はを]やめ(?:ます|る|よう|ました|て))(?!\w)",
                       re.IGNORECASE)
# A mind changed on a choice, said so ("changed my mind: canary 5% on reserve-svc for 7h, not canary 10% ...",
# "zmieniłem zdanie: ..."): what follows is a choice made again, a decision, even where it states a value.
# (not a plan changed, "Planänderung: ...", "change of plan: ...": a value set then stays a setting)
MIND_CHANGED = re.compile(r"(?<!\bnot )(?<!n't )(?<!\bnever )\b(?:chang(?:ed|ing) my mind|on second thoughts?|mudei de ideia|"
                          r"cambi[ée] de (?:idea|opini[óo]n)|j'ai chang[ée] d'avis|ich hab(?:e)? (?:es )?mir (?:das )?anders "
                          r"(?:ü|ue)berlegt|zmieni[łl][ae]?m zdanie|ik ben van gedachten veranderd|ho cambiato idea|"
                          r"ik kom (?:er )?(?:nog )?(?:even )?terug op\b[^:\n]{0,60}:\s*toch)(?!\w)",
                          re.IGNORECASE)
# "update on the former distributor's goodwill claim: ..., so we take a price reduction ...": a choice said as
# news on one named thing revises the choice about it.
_UPDATE_ON = re.compile(r"^\W*(?:(?:quick|small|an?)\s+)?update on\b", re.IGNORECASE)
_ASKS = re.compile(r"^\W*(?:remind me|tell me|what|which|who|when|where|why|how|do|does|did|can|could|should we|is|are|"
                   r"(?:please\s+)?(?:look up|find out|find|dig up|pull up|check|search|confirm)\b(?:[^.!?]{0,80}\bwhat\b)?)\b",
                   re.IGNORECASE)


# A question typed on before more words ("can you remind me what we agreed with Joost ...?, then I'm off to court").
_ASKED_MIDWAY = re.compile(r"\w\?[.!,;]*\s")


# The user's choice said final ("chalo, git pull script on the box final", "Twilio Verify final.", "final: X"), or voted
# for in Hindi ("mera vote plain MySQL LIKE search ke liye"): the user's words only (an agent's "the total is final"
# reports).
_USER_DECIDES = re.compile(r"^[^.;!?\n]{3,80}\s+final\s*(?:[(,.;!\u2014-]|$)|^\W*final\s*:\s*\S|\bmera vote\b|"
                           r"\bmy vote (?:goes )?(?:for|to)\b", re.IGNORECASE)


def user_decides(sentence: str) -> bool:
    """Whether a sentence of the user's says a choice is final or votes for it (see :data:`_USER_DECIDES`)."""
    low = sentence.lower()
    return ("final" in low or "vote" in low) and bool(_USER_DECIDES.search(sentence))


@remembered(4_096)
def is_decision(sentence: str) -> bool:
    """A choice said with its reason or its alternative, or a marker that says so; never a question or a
    request to recall one ("Remind me what we decided.")."""
    if _ASKS.match(sentence) or sentence.rstrip().endswith("?") or _ASKED_MIDWAY.search(sentence):
        return False
    return 16 <= len(sentence) <= 500 and bool(_DECISION.search(sentence) or (
        _DECISION_WEAK.search(sentence) and (_REASON.search(sentence) or _REVISION.search(sentence))))


def decision_item(sentence: str, index: int) -> Item:
    """A decision; one that revises an earlier choice ("scrap that idea; let's ...") supersedes it. One a
    marker says is a decision ("Decision:", "we'll go with", "decided") ranks above one read from a
    first-person choice and its reason."""
    return Item("decision", sentence.lower(), clip(sentence, 400), index,
                update=bool(_REVISION.search(sentence[:DECISION_CHARS]) or _UPDATE_ON.match(sentence)),
                rank=2 if _DECISION.search(sentence[:DECISION_CHARS]) else 1)


DECISION_CHARS = 500  # of a sentence read as a choice, what its markers are looked for in (see is_decision)


_REASON = re.compile(r"\b(?:because|since|so that|so we|to avoid|as it|as they|as there|over|going forward|from now on|"
                     r"instead of|rather than|otherwise|there are only|it'?s only|which means|given (?:that|the)|"
                     r"shout if you disagree|unless you object|any objections)\b|\s[\u2014\u2013-]\s|: \w",
                     re.IGNORECASE)
_REASON_NEXT = re.compile(r"^\W*(?:mostly |mainly |partly |that'?s |this is |it'?s )?(?:(?:because|since|the reason|shout if|"
                          r"unless you object)\b|(?:reason|why|rationale|reden|waarom|pow[óo]d|dlaczego|grund|raison|"
                          r"raz[óo]n|motivo|alasan(?:nya)?)\s*:)", re.IGNORECASE)
# What happened, told in the past ("First I checked the logs. Then I restarted it.", "for the record: the pump failed, then
# the backup kicked in"): no step to take.
_NOT_TOLD = (r"(?![^.\n]{0,120}?\b(?:i|we|it|they|he|she|the \w+)\s+(?:\w{2,}ed|was|were|did|had|went|got|came|took|saw|"
             r"found|ran|broke|kicked|made|sent|told|said)\b)")
_PLAN_IS_TO = re.compile(r"(?:the|my|our) plan is to\b", re.IGNORECASE)  # a plan said as one: its steps need no "then"
# A plan written in prose, by the word each opening needs (a case-blind alternation of all of them over every
# message is slow; each is tried only where its word is): (word, regex).
_PLAN_OPENINGS = (
    # (not Terraform's "Plan: 11 to add, 10 to change, 0 to destroy.", which an agent quotes)
    (("plan",), re.compile(r"(?im)\bplan\b[^:\n.?!]{0,60}:(?!\s*\d+ to (?:add|change|destroy|import)\b)|"
                          r"^\W*(?:(?:the |my |our )?plan(?: is)?\s*[:\-](?!\s*\d+ to (?:add|change|destroy|import)\b)|"
                          r"here'?s (?:the|my) plan|planen\s*:)|\b" + _PLAN_IS_TO.pattern)),
    (("before",), re.compile(r"(?i)\bbefore (?:touching|changing|doing|editing) anything\b")),
    (("step",), re.compile(r"(?im)^[^\n]{0,30}\bsteps?\s*:\s*$|^\W*(?:next )?steps?(?:, in order)?\s*:|"
                          r"\bnext steps?\b[^.\n]{0,20}:")),
    (("tomorrow", "today", "tonight", "this week", "next week", "morgen", "heute", "demain", "aujourd", "mañana",
      "hoy", "amanhã", "domani"),
     re.compile(r"(?im)^\W*(?:[^:\n]{0,30}[\u2014:,-]\s*)?(?:tomorrow|today|tonight|this week|next week|morgen|heute|"
                r"demain|aujourd'hui|mañana|hoy|amanhã|domani)\s*:")),
    (("order", "ordning", "phases", "here's how", "heres how", "here's what", "heres what", "passes", "stages", "rounds",
      "steps", "thinking", "propose", "suggest", "sugg", "propongo", "proponho", "schlage"),
     re.compile(r"(?im)^\W*(?:(?:rough |the )?order\s*:|ordning(?:en)?\s*:|(?:\w+ )?phases\s*:)|\border of (?:ops|operations)\b[^:\n.?!]{0,60}:|"
                # "let's do this in passes:", "we'll take it in three stages:"
                r"\b(?:let'?s|we'?ll|i'?ll|we should) (?:do|take|tackle|handle|run) (?:this|it|them) in (?:\w+ )?"
                r"(?:passes|stages|phases|rounds|steps)\b[^\n]{0,40}:|here'?s how (?:i'?d|i would|i want to|i'?d like to|"
                r"i will|i'?ll|we'?ll|we should|we want to) (?:approach|tackle|do|handle|go about|sequence|order|play|run) "
                r"(?:it|this)|"
                # a line that says what the steps under it are for ("Here's how I'd clear the refund backlog:")
                r"here'?s (?:how|what) (?:i'?d|i would|i'?ll|i will|we'?ll|we should|we could|i propose)\b[^\n]{0,80}:[ \t]*$|"
                # the user's thinking, its steps after it ("so here's what I'm thinking — we cut over on the 28th after
                # the QA audit, and only then we touch the other robots.")
                r"here'?s what i'?m thinking\b|here'?s my thinking\b|my thinking is\b|"
                # what the user proposes, its steps after it ("Here's what I propose. First we move ...", "Voilà ce que
                # je propose. D'abord ...")
                r"here'?s what i (?:propose|suggest)\b|(?:voil[àa]|voici) ce que je (?:propose|sugg[èe]re)\b|"
                r"(?:esto|eso) es lo que propongo\b|(?:isto|isso) [ée] o que (?:eu )?proponho\b|das schlage ich vor\b|"
                r"ecco (?:cosa|quello che) propongo\b")),
    (("then",), re.compile(r"(?i)(?:\bthen\b[^.\n]{3,160}){2,}")),
    (("first", "to start"), re.compile(r"(?i)\b(?:first|to start),? (?:i'?ll|i will|we'?ll|we will|let'?s|i'?m going to)\b|"
                                       r"(?<!the )(?<!its )(?<!our )(?<!my )\bfirst\b" + _NOT_TOLD + r"[^.\n]{0,120}[;,]\s*(?:then|second|next|after that|ensuite|puis|"
                                       r"luego|despu[ée]s|depois|dann|danach|poi)\b")),
    # "step one compare RPP and MPPI, step two clean up the warnings", "step 1 build locally; step 2 purge"
    (("step",), re.compile(r"(?i)\bstep (?:one|1)\b[^.\n]{3,160}\bstep (?:two|2)\b")),
    # Japanese, Chinese, Korean: first ..., then ... ("まずset up the heartbeat、それからcheck the e-stop latency", "先跑基线，然后
    # 做消融", "먼저 빌드하고 그 다음에 테스트")
    # a plan's label in Japanese ("マージ前の手順: ...", "手順としては 1. ...", "ロールアウトはこうしたい: まず ...")
    (("手順", "計画", "段取り", "プラン", "進め方", "こうしたい", "こうしよう"),
     re.compile(r"(?:手順|計画|段取り|プラン|進め方)[^。\n:：]{0,12}[:：]|(?:手順|段取り)としては|"
                r"(?:こうしたい|こうしよう|こう進めたい)\s*[:：]")),
    (("まず", "先", "먼저"), re.compile(r"(?:まず|最初に)[^。\n]{2,120}(?:それから|次に|その後|そのあと|続いて)|"
                                       r"先[^。\n]{2,80}(?:然后|接着|再)|먼저[^.\n]{2,80}(?:그 ?다음|그리고 나서|다음에)")),
    # the same in other languages ("Erst den Encoder fertig machen, dann ... testen, danach ingest deployen", "primero
    # ..., luego ...", "d'abord ..., puis ...")
    (("erst", "zun", "d'abord", "primer", "primei", "prima"),
     re.compile(r"(?i)(?:^|[\s:(])(?:erst|zuerst|zun(?:ä|ae)chst|d'abord|primero|primeiro|prima)\b"
                r"(?:[^.\n]|\.(?=\w)){3,120}[;,]\s*"
                r"(?:und )?(?:dann|danach|anschlie(?:ß|ss)end|puis|ensuite|luego|despu[ée]s|depois|poi)\b")),
    # a label for what the steps are for, then the steps one after another ("For the A220 ramp-up: B1 pairs for the
    # first 7 nights, then progressive autonomy, ...", "Pour la montée en charge A220 : binôme B1 ..., puis ...")
    (("for ", "pour ", "para ", "per ", "für ", "fur ", "voor "),
     # (not what is told for context, "For context: prod was fine until 10pm, then ...", "Pour info : ...", "For repro: ...")
     re.compile(r"(?im)^[^\w\n]*(?:for|pour|para|per|f(?:ü|ue|u)r|voor)\b(?!\s+(?:context|reference|info|information|example|"
                r"instance|repro|what it'?s worth|the record|comparison|background|clarity|now|contexto|contexte|referencia|"
                r"r[ée]f[ée]rence|exemple|ejemplo|exemplo|esempio|la cronaca|die akten|beispiel|la historia|memoria)\b)"
                r"[^:\n.?!]{3,60}\s?:" + _NOT_TOLD +
                r"\s*[^.\n]{3,120}[,;]\s*(?:and |et |y |e |und )?"
                r"(?:then|puis|ensuite|luego|despu[ée]s|depois|dann|danach|poi)\b")),
    # Swedish, "först" opening a line or a label's text ("planen: först bryter vi ut X ur komponenten, sen byter vi till
    # Y"; not what happened, "Först kollade jag loggarna, sen hittade jag felet", "Jag gjorde först en backup, sen ...",
    # nor what a thing does, "Funktionen läser först konfigurationen, sedan ...")
    (("först", "forst"),
     re.compile(r"(?im)(?:^\W*|:\s*|[.!?]\s+)f[öo]rst\b(?![^.\n,;]{0,120}\b(?:\w{2,}de|\w{2,}te|tog|gick|var|hade|har|blev|"
                r"fick|s[åa]g|kom|skrev|k[öo]rs|m[åa]ste|ska)\b)"
                r"(?:[^.\n]|\.(?=\w)){3,120}[;,]\s*(?:och )?(?:sen|sedan|d[äa]refter)\b")),
    # "this is how we do it:" in other languages ("så här gör vi: reset ...; rotate ...", "so machen wir es:", "zo doen
    # we het:", "así lo vamos a hacer:", "vamos fazer assim:", "voilà comment on fait :")
    (("så här", "sa har", "so machen", "zo doen", "así lo", "asi lo", "fazer assim", "comment on"),
     re.compile(r"(?i)\b(?:s[åa] h[äa]r (?:g[öo]r vi|t[äa]nker jag)|so machen wir(?: es|'s)?|zo doen we (?:het|dit)|as[ií] lo (?:vamos a hacer|"
                r"hacemos)|vamos fazer assim|voil[àa] comment on (?:fait|proc[èe]de))\s*[:\n]")),
    # how the user would go about it, as a line that opens the steps ("So würde ich's machen:", "Ich würde so vorgehen:",
    # "Reihenfolge wäre:", "Vorschlag für die Woche:", "For the data paper I'm thinking:", "Here's how I'd do it:")
    (("würde", "wurde", "vorgehen", "reihenfolge", "vorschlag", "thinking", "i'd do", "id do", "proposal"),
     re.compile(r"(?im)^\W*(?:[^:\n]{0,40}\b)?(?:so w(?:ü|ue|u)rde ich(?:'?s| es| das)? (?:machen|angehen)|ich w(?:ü|ue|u)rde "
                r"(?:so|folgenderma(?:ß|ss)en) vorgehen|so gehen wir vor|(?:die )?reihenfolge(?: w(?:ä|ae)re)?|"
                r"(?:mein )?vorschlag(?: f(?:ü|ue)r [^:\n]{1,30})?|i'?m thinking|(?:my )?proposal|here'?s how i'?d do it)\s*:")),
    # a week's days one after another, each with its work, as a line or a label's list ("Vorschlag für die Woche: Montag
    # Restarts prüfen, Dienstag ..., Mittwoch ..."; not "On Monday we fixed it, Tuesday ...", what happened)
    (("monday", "montag", "lundi", "lunes", "segunda", "lunedì", "maandag", "tuesday", "dienstag"),
     re.compile(r"(?im)(?:^\W*|:\s*)(?:monday|montag|lundi|lunes|segunda|luned[iì]|maandag|tuesday|dienstag)\b"
                # (not what happened: "Monday we found the leak, Tuesday we patched the pool, ...")
                r"(?![^,;.\n]*\b(?:\w{2,}ed|was|were|did|had|found|came|went|got|took|broke|saw|hat|haben|war|waren|wurde|"
                r"habe|hatte|fue|fueron|foi|été|était|avons|ont)\b)[^.\n]{3,120}[,;]\s*"
                r"(?:tuesday|dienstag|mardi|martes|ter(?:ç|c)a|marted[iì]|dinsdag|wednesday|mittwoch|mercredi|mi[ée]rcoles|"
                r"quarta|mercoled[iì]|woensdag)\b[^.\n]{3,120}[,;]\s*(?:wednesday|mittwoch|mercredi|mi[ée]rcoles|quarta|"
                r"mercoled[iì]|woensdag|thursday|donnerstag|jeudi|jueves|quinta|gioved[iì]|donderdag)\b")),
    # Indonesian and Malay: a plan's label ("rencana minggu depan: ...", "langkahnya: (1) ...", "urutannya: ..."), or
    # a thing first, then another ("snapshot dulu, test restore di staging, terus eksekusi ...")
    (("rencana", "langkah", "urutan", "tahap", "dulu", "pertama"),
     # (not a question, "langkah-langkahnya gimana: ...", nor what became of it, "rencananya gagal: ..."; "dulu" opening
     # a line is "formerly", and what was done, "tadi saya restart dulu, terus ...", is told)
     re.compile(r"(?im)\b(?:rencana(?:nya)?|langkah(?:-langkah)?(?:nya)?|urutan(?:nya)?|tahap(?:an)?(?:nya)?)\b"
                r"(?![^:\n.?!]{0,40}\b(?:gimana|bagaimana|apa|gagal|batal|berantakan|kacau)\b)[^:\n.?!]{0,40}:|"
                r"\brencananya (?:gini|begini|kayak gini)\b|"
                r"^(?![^\n]*\b(?:tadi|kemarin|pernah|sudah|udah|waktu itu|barusan|kemaren)\b)(?![^\n]*\?[^\w\n]*$)"
                r"(?![^\w\n]*dulu\b)[^\n]*?"
                r"\b(?:dulu|duluan)\b[^.\n]{0,120}?[,;]\s*(?:terus|lalu|kemudian|abis itu|habis itu|setelah itu)\b|"
                # ("pertama model ETA baru jalan shadow mode ... . abis itu kita bandingin ...")
                r"\bpertama(?:-tama)?\b[^.\n]{0,160}?(?:[,;]|[.!]\s)\s*(?:terus|lalu|kemudian|abis itu|habis itu|setelah itu)\b")),
    # Polish: a plan's label ("Plan na dziś: ...", "Kolejność: ...", "Kroki: ..."), or first ..., then ... ("Najpierw
    # wyciągamy ..., potem oceniamy ..., a na koniec ..."; not what was done, "najpierw sprawdziłem ..., potem ...")
    (("najpierw", "kolejno", "plan na", "kroki"),
     re.compile(r"(?im)(?:^[^\w\n]*|:[ \t]*)(?:plan na (?:dzi[śs]|jutro|dzisiaj|ten tydzie[ńn]|tydzie[ńn]|weekend|sprint)|"
                r"kolejno[śs][ćc]|kroki)[ \t]*:|"
                # (nor a look taken first, the agent's next step: "Najpierw sprawdzę stan, potem coś zmienię."; nor what
                # happened, "Najpierw był błąd 502, potem 504"; nor a question, "Czy najpierw robimy backup, a potem ...?")
                r"(?<!czy )\bnajpierw\b(?!\s+(?:sprawdz|zobacz|popatrz|przejrz|spojrz|zerkn)\w*)(?![^.\n,;]{0,120}\bby[łl][aoy]?\b)"
                r"(?![^.\n,;]{0,120}\b\w{3,}(?:[łl]em|[łl]am|[łl]y[śs]my|[łl]i[śs]my|[łl]o|[łl]a|[łl])\b)"
                r"(?:[^.\n]|\.(?=\w)){3,160}[;,]\s*(?:a\s+)?(?:potem|nast[eę]pnie|p[óo][źz]niej|na koniec|na ko[ńn]cu)\b")),
    # ("the first 90 days; after that the curves run parallel" tells what data shows: "first" is no step there)
    (("\u2192",), re.compile(r"\S \u2192 \S[^\n]*\u2192")),
)


def _plan_start(text: str, low: str) -> tuple[int, bool]:
    """Where a plan opens in ``text`` (``low``: it lower-cased), or -1; and whether its opening is a word that
    starts it ("Plan:", "Here's how I'd sequence it:"), so that the sentences before it on its line are none of
    its steps. A run of "then" or arrows opens where its first step is, which may be the sentence before."""
    found, own = -1, False
    for words, pattern in _PLAN_OPENINGS:
        if not any(map(low.__contains__, words)) or (words == ("then",) and low.count("then") < 2):
            continue
        m = pattern.search(text)
        if m is not None and (found < 0 or m.start() < found):
            found, own = m.start(), words not in (("then",), ("\u2192",))
    return found, own


_SENTENCE_END = re.compile(r"[.!?]\s+(?=\S)")


_THEN = re.compile(r"\b(?:then|next|after that|finally|afterwards|once that|second|last|dann|danach|anschlie(?:ß|ss)end|"
                   r"dienstag|tuesday|"
                   r"zum schluss|puis|ensuite|enfin|luego|despu[ée]s|finalmente|depois|poi|step (?:two|2)|"
                   r"terus|lalu|kemudian|abis itu|habis itu|setelah itu|selanjutnya|terakhir|"
                   r"potem|nast[eę]pnie|p[óo][źz]niej|na koniec|na ko[ńn]cu)\b|\u2192|"
                   # (Swedish after a comma only: "Plan: rent a sedan", "Plan: ask Sen about it" have no step)
                   r"[,;]\s*(?:och )?(?:sen|sedan|d[äa]refter)\b|"
                   r"それから|次に|その後|そのあと|続いて|最後に|問題なければ|まず|然后|接着|그 ?다음", re.IGNORECASE)
# "1) sort the tickets, 2) ...", "(1) backfill ..., (2) rebuild ...", "(a) take a fresh backup (b) rotate ..."; after a word that opens a plan, with no
# comma between ("手順としては 1. gooseでmatcha_at カラム追加 2. アプリを両方読めるようにdeploy 3. ...")
_INLINE_STEPS = re.compile(r"(?:^|\s)\(?1[.)]\s.{3,200}?(?:,|;)\s*\(?2[.)]\s|(?:^|\s)\(a\)\s.{3,200}?\s\(b\)\s|"
                           r"(?:^|\s)1[.)]\s[^\n]{3,200}?\s2[.)]\s[^\n]{3,200}?\s3[.)]\s")
# A step on a line of its own: "1. ...", "- ...", "pass 2: ...", "Step 3 - ..."
_NUMBERED = re.compile(r"(?mi)^\s*(?:\d+[.)]|-|\*|(?:pass|step|phase|stage|round) \d+\s*[:.)\u2014-]) +\S.{8,}$")


def plan_item(plan: str, index: int, user: bool = False) -> Item:
    """A plan among the open tasks, under the ledger's label "Plan: " unless its own words open with it; ``user``: the
    user wrote it (never collapsed as a stock sentence, see ledger.corrections.collapse_repeats)."""
    return Item("goal", f"plan {index}", clip(plan, 400) if plan[:5].lower() == "plan:" else "Plan: " + clip(plan, 400), index,
                user=user)


@remembered(1_024)
def plan_of(text: str) -> str:
    """The plan a message writes out in prose (its opening sentence and the steps after it), or ""."""
    at, own = _plan_start(text, text.lower())
    if at < 0:
        return ""
    start = text.rfind("\n", 0, at) + 1
    if own:  # "On the fraud-scorer logs: nothing new. Plan:": what the line said before the plan is no step of it
        start = max([start] + [m.end() for m in _SENTENCE_END.finditer(text, start, at + 1)])
    rest = text[start:start + 1200]
    steps = _NUMBERED.findall(rest)
    # (after a word that opens a plan, steps may run on a line, one after another: "so machen wir's: a; b; c")
    if (len(steps) >= 2 or _THEN.search(rest[:600]) or _INLINE_STEPS.search(rest[:600]) or _PLAN_IS_TO.match(text, at)
            or (own and rest.split("\n", 1)[0].count(";") >= 2)):
        if len(steps) >= 2:
            return rest.strip()
        paragraphs = rest.split("\n\n", 2)
        paragraph = paragraphs[0].strip()
        if paragraph.endswith(":") and len(paragraphs) > 1 and paragraphs[1].strip():
            # a heading of its own ("hearing prep plan:"), its steps in the paragraph under it
            paragraph = f"{paragraph}\n\n{paragraphs[1].strip()}"
        return paragraph
    return ""

"""Reading a user's message: what they wrote, what they pasted, and what each sentence of theirs is.

Structure before words: :mod:`.segments` cuts a user's message into the user's own prose and what
they pasted (fenced blocks, logs, tables, quoted mail, documents). Only the prose can hold an
instruction or a correction; pasted material is evidence (its errors may be listed, marked as pasted),
and a rule inside a pasted document is kept apart, as the document's, after the whole document was read.

Each sentence of prose is then one of:

- a **correction** (it takes back or replaces something said before: "sorry, I meant ...", "no
  wait, the bucket is the eu one", "scratch that", in the languages below);
- a **rule** (a standing instruction, constraint or preference: it forbids, requires or prefers,
  or it speaks of what holds from now on or for every case: "we use tabs here", "I'd rather you
  kept answers short", "Bitte keine Kreisdiagramme", "Use the structured logger for anything new");
- a **setting** (a statement of a value: "the tenant id is 19ad...", "Production runs the SDK 4.2");
- a **request** (everything else the user asks: done once answered).

The markers are the words a reader of English, French, German or Spanish takes as such; they are
not the phrasing of any one session.
"""

from __future__ import annotations

import functools
import re

from .. import memos
from .segments import DOCUMENT_CHARS, Segment, _split_long, line_is_pasted, split

__all__ = ["DOCUMENT_CHARS", "Segment", "forget", "is_correction", "is_request", "says_holding", "is_rule", "is_strong_rule", "is_update", "kind_of",
           "line_is_pasted", "sentences", "split"]


def forget() -> None:
    """Drop the remembered cuts and verdicts, and every memo of extraction (a benchmark of cold compaction
    starts from nothing)."""
    _split_long.cache_clear()
    is_rule.cache_clear()
    memos.forget()


# (every cut starts at a space or at the text's end, "$": the lookahead in front skips the other characters
# before the alternatives are tried)
# (a full stop, "!" or "?" of Chinese or Japanese ends a sentence with no space after it: "あと、土曜日の9時前は
# 予定を入れないで。family time bitte.")
_WIDE_STOPS = ("\u3002", "\uff01", "\uff1f")
_SENTENCE = re.compile(rf"(?<=[{''.join(_WIDE_STOPS)}])[ \t]*(?=[^\s{''.join(_WIDE_STOPS)}])|" r"(?=\s|$)(?:(?<=[.!?])\s+(?=[A-Z\u00c0-\u00dd`\"'(\[¿¡])|(?<=[?!])\s+(?=[a-z])|"
                       # "... is a no-go. fix that up?", "... de Clínica San José. if a max-prefix trips, ..."
                       r"(?:(?<=[a-z\u00df-\u00f6\u00f8-\u00ff]{3}\.)(?<!etc\.)(?<!fig\.)|(?<=[a-z]-[a-z]{2}\.))\s+(?=[a-z])|"
                       # (after a word of two, before a lead into the next thing: "..., then tell me. oh and desculpa: ...")
                       # (in Hinglish too: "... kya server pe. aur haan, if anything ...")
                       r"(?<=\b[a-z]{2}\.)(?<!\bvs\.)\s+(?=(?:oh|ah|also|and|btw|ps|ok|so|but|aur|haan|acha|accha|arre)\b)|"
                       # after a quote or a bracket: "... to 'Plan limits'. when you ...", "... decimal commas (1.234,56). hey, ..."
                       r"(?<=[a-z0-9]['\")]\.)\s+(?=[a-z])|"
                       # after an emoji, before a lead into the next thing ("close out SEC-6653 \U0001f64f general thing: ...")
                       r"(?<=[\U0001f300-\U0001faff\u2600-\u27bf])\s+(?=(?:[\w ]{1,24}:\s|(?:also|btw|ps|oh|unrelated|"
                       r"separately|fyi|and also|one more thing)\b))|"
                       r"\n+|(?<=[.!?])\s*$)")


# A sentence that ends on a file's or a host's name and a lowercase one after it ("... in docs/admin/scim.md.
# tag every ticket ..."): the period after a name with a dot in it ends the sentence too ("e.g." is no name).
# (A name is read from a word's start: a match inside a word would start earlier, so the rest of it is skipped.)
_NAME_END = re.compile(r"(?<![\w-])((?:[\w-]+[/.])+[\w-]+\.[a-z0-9]{1,5}\.)[ \t]+(?=[a-z])")


def sentences(text: str) -> list[str]:
    return list(_sentences(text))


def joined(first: str, then: str, said: str = "") -> str:
    """Two sentences that follow each other, as they were written (``said``, the text they come from, when known):
    a space between, but after a Chinese or Japanese full stop, which takes none unless the writer put one ("重く
    ない？ before lunch")."""
    if not first.endswith(_WIDE_STOPS):
        return f"{first} {then}"
    spaced = said and f"{first[-12:]} {then[:12]}" in " ".join(said.split())
    return f"{first}{' ' if spaced else ''}{then}"


@memos.remembered(4_096)
def _sentences(text: str) -> tuple[str, ...]:
    if ". " in text and _NAME_END.search(text):
        text = _NAME_END.sub("\\1\n", text)
    return tuple(s.strip() for s in _SENTENCE.split(text) if s and s.strip())


# What a correction says was wrong ("wrong port", "wrong bucket").
WRONG_WHAT = "one|value|port|host|id|name|bucket|file|branch|ticket|number|address|table|path|node|server|machine|cluster|region|version|database"

# A correction: the user takes back or replaces what was said (English, French, German, Spanish).
_CORRECTION = re.compile(
    # forget the value said, in Italian ("lascia perdere PID 17620, il progetto REDCap di Modena è PID 17602")
    r"^\W*(?:lascia (?:perdere|stare)|dimentica|scordati) [^,.;!?\n]{0,30}?\d[^,;!?\n]{0,20},|"
    # (after the thing it is about, as a label: "e-Arşiv report — sorry, HOZKOK. not BSAHINER.")
    # (not one that names a typo to fix: "small thing — typo in a comment in x.go")
    # (and it names a value or what was wrong: "Re the flaky test — sorry, I know you're busy, ..." apologizes)
    r"^\W*(?:[^\W\d][^:\u2014\u2013\n.!?]{0,38}\s[\u2014\u2013]\s+(?!typo\b)"
    r"(?=[^\n]{0,80}?(?:\d|\bnot\b|\bwrong\b|\bmeant\b|yanl[ıi][şs]|de[gğ]il|\bnahi\b|\b(?-i:[A-Z]{4,})\b)))?"
    r"(?:(?:oh|ah|and|but|also|ok|okay|hmm|um|so|right|anyway|btw|well|ugh|hm|hi|hey|hiya|hello|yo|oye|ey|olha|bom|"
    r"alors|bon|pis|nee|nie|nej|poi|allora|quindi|comunque|pues|entonces|bueno|ent[ãa]o|dann|og|s[åa]|finalement|finalmente|finally|"
    r"no(?=,?\s+(?:scusa|scusami|aspetta)\b))\W+){0,3}(?:sorry\b(?!,?\s+(?:i\s+forgot|one\s+more|also\b|for\b|to\s+(?:bother|interrupt|ask)|about\b|on (?:my|the) (?:phone|mobile|train|bus|tram|road|way)\b|typing\b|"
    # (a change of subject: "sorry, different matter", "sorry, unrelated question")
    r"(?:different|other|another|unrelated|separate|new) (?:matter|topic|thing|question|subject|issue|case|client)\b|"
    # (nor one for being away: "sorry, meeting.", "sorry, was in a call")
    r"(?:i was |was )?(?:in (?:a |the )?)?(?:meeting|call|lunch|afk|away|busy|late|offline)\b))|"
    r"actually\b(?!,?\s+(?:also|and|one more|let me|i'?ll|we'?ll)\b)|correction\b|(?:no,? )?wait\b(?!\s+(?:until|till|for|on|a\b|an\b|\d|to\b|what\b(?!\s+I\b)))|oops\b|whoops\b|oups\b|no\s*[,.!:\u2014\u2013-]|n[ãa]o\s*[,.!:\u2014\u2013-]|nein\s*[,.!:]|no,? no\b|nope\b|hmm,? no\b|scratch that|scrap that(?! (?:idea|plan|approach|option))|nvm\b|never ?mind,|(?:scratch|forget|ignore) (?=[^\s,]*[\d./:_@])[^\s,]+,|change of plan|"
    # (and in other languages: "changement de plan, on fait ... (pas ...)", "cambio de planes, ..."; as a label,
    # "Planänderung: ZMS ...", the choice it names is revised, see decisions)
    r"(?:changement de plans?|cambio de planes?|mudan[çc]a de planos?|plan(?:ä|ae)nderung|cambio di (?:programma|piano)|"
    r"planwijziging|zmiana plan[óu]w?)\s*[,!\u2014\u2013-]|"  # (the user's own, opening: not "Changement de plan du client")
    r"my (?:bad|mistake)|typo\b|ignore (?:that|what I said)|on (?:second thoughts?|reflection)\b|second thoughts?\b|"
    r"thinking about it (?:more|again|some more)\b|come to think of it\b|having thought about it\b|"
    # (not an apology for being away: "Désolé, j'étais au téléphone avec Bell.", "perdón, estaba en una llamada")
    r"pardon\b|d[ée]sol[ée]\b(?!,?\s+(?:j'[ée]tais|j'avais|pour le (?:d[ée]lai|retard)))|en fait\b|non\s*[,:]|correction\s*:|"
    # after a short label ("petit retour en arrière: oops, it was ventdouest not xX_ardoise_Xx")
    r"[^:\n]{1,30}:\s*(?:oops|whoops|my bad|scratch that|i meant)\b|"
    # a change said as a label, in any of these languages ("cambio: payroll funding from Chase, ...")
    r"(?:change|cambio|changement|(?:ä|ae)nderung|wijziging|zmiana|mudan[çc]a|modifica)\s*:|"
    # Chinese, Japanese, Korean: a change said as a label, "that's wrong", "I misspoke" ("改一下：消融实验用 410M proxy，不用
    # 125M proxy 了", "不对，学习率是2.8e-4", "違う、ポートは8080です")
    r"(?:改一下|更正|修改|变更|訂正|変更|변경|정정)\s*[:\uff1a]|(?:不对|不是|说错了|搞错了|違う|間違え|아니|잘못)\s*[,\uff0c\u3001!\uff01]|"
    # a value and a star, the chat's mark for "I meant this" ("lm-cu121-py311* pls"), not a glob ("*.py", "lm-*")
    r"[\w.@/:+-]*\w\*(?=\W*(?:pls|please|thx|sorry)?\W*$)|"
    r"entschuldigung\b|korrektur\b|nein,|doch\b|"
    # "wait" in other languages, as a word of its own ("non attends, l'expéditeur c'est ...", "warte, ...", "espera, ...")
    r"(?:non,? |nein,? |no,? )?(?:attends|attendez|warte|moment mal|espera|espere|aspetta)\s*[,!:\u2014\u2013-]|"
    r"perd[oó]n\b(?!,?\s+estaba\b)|lo siento\b|correcci[oó]n\b|mejor dicho\b|no,|"
    r"fel av mig\b|f[öo]rl[åa]t\b|mijn fout\b|excuses\b|przepraszam\b|pomy[łl]ka\b|scusa\b|mi sono sbagliat|"
    r"desculpa\b(?!,?\s+(?:tava|estava)\b)|me enganei\b|galti se\b|nahi,? nahi\b|"
    r"(?:woh |maine )?galat (?:bola|likha|bataya|diya)\b|"
    # (Turkish: "yanlış söyledim: VERTAN değil GCINAR", "düzeltme: ..."; not "aslında", as often a filler as "actually")
    r"yanl[ıi][şs] (?:s[öo]yledim|yazd[ıi]m|verdim)\b|d[üu]zeltme\b|hay[ıi]r\s*[,.!:]|sumimasen\b|\u3054\u3081\u3093|\u3059\u307f\u307e\u305b\u3093|\u5bf9\u4e0d\u8d77|\u4e0d\u597d\u610f\u601d)|"
    r"\b(?:I meant|I mean|meant to say|make that\b|mixed up|misremembered|misspoke|I was wrong|transposed|"
    # (Indonesian and Malay: "bukan yang itu, maksudnya cutover tgl 21 Nov", "eh salah, ...", "ralat: ...", "yang
    # satunya"; not a question of what is meant, "maksudnya gimana?")
    # (but "maksudnya, ..." as "that is", "tolong koreksi query ini", "ada salah ketik di README", "yang satunya juga")
    r"(?:bukan (?:yang )?(?:itu|ini)|eh|sori|sorry|maaf|ups|oops)[,.\s]+maksud(?:nya|ku| gue| gw| saya| aku)\b|"
    r"bukan (?:yang )?(?:itu|ini)\b|(?:gue|gw|aku|saya|tadi) salah (?:ketik|tulis|nulis|sebut|kasih)\b|ralat\b|"
    r"koreksi(?: ya)?(?=\s*[,:])|keliru\b|eh,? salah\b|salah,? (?:harusnya|seharusnya|yang bene?r)\b|maksud(?:nya|ku| gue| gw| saya| aku)\b[^.;!?\n]{1,80}\byang satunya\b|"
    # (I was wrong, in French, Spanish and German: "je me suis trompé, c'est IMP-ECA-C250", "me equivoqué, es ...")
    r"je me suis tromp[ée]e?|je me trompais|erreur de ma part|me equivoqu[ée]|me confund[ií]|ich hab(?:e)? mich (?:vertan|geirrt)|"
    # (and in Dutch and Polish: "ik zat ernaast, het is ...", "ik bedoelde ...", "pomyliłem się, to ...", "chodziło mi o ...")
    r"ik zat ernaast|ik vergiste me|ik heb me vergist|pomyli[łl][ae]?m si[ęe]|"
    # ("..., ik had twee cijfers omgedraaid", "foutje van mij, het is ...", "ik zat fout", "correctie: ...", "ik heb het
    # verkeerd doorgegeven"; the user's own slip, not "Heeft de leverancier de cijfers omgedraaid?", "een foutje in de build")
    r"ik had (?:\w+ )?(?:cijfers|getallen) omgedraaid|^\W*(?:oeps\W+)?foutje(?: van mij)?(?=\s*[,:\u2014\u2013-])|"
    r"ik zat fout(?! te\b)|correctie(?=\s*[:,])|ik (?:heb|had) (?:\w+ ){0,3}verkeerd (?:doorgegeven|gezegd|getypt|opgeschreven)|"
    r"(?:ik bedoelde|chodzi[łl]o mi o)(?=\s+[`'\"]?[\w.@:/+-]*\d)|"
    r"foi mal(?=\W*$)|"  # (Portuguese "my bad", closing: "é link.pitanga.app, sem o s. foi mal")
    # "digits swapped: brown-out at 2.56 V", "other way round on those I2C pins: SDA is PC7", and one said in the
    # middle of a message ("... and — correction to what I said about the partition — it starts at 0x00054000")
    r"(?:digits|numbers|figures) (?:were |got )?swapped|swapped the (?:digits|numbers|figures)|(?:the )?other way (?:a)?round(?= on\b|\s*[:,;\u2014\u2013-])|"
    r"correction to (?:what|the \w+) (?:i|we) (?:said|wrote|gave|told)|"
    # one value set against another ("the rate for the 28th was 1.1086 not 1.1068")
    # a value said again with "actually" after it ("ah e it's 44 libraries actually"), the other one of two set aside ("c'était
    # Crabe_Royal le tester, pas l'autre", "..., not the other one"), French negation first ("c'est pas le Thornback, c'est
    # le Runeleech")
    r"\b(?:it'?s|it is|it was|that'?s|they'?re|we'?re|is|are|was)\s+[^,.;!?\n]{1,50}?\s+actually\W*$|"
    r",\s*(?:pas l'autre|pas (?:le|la) bon(?:ne)?|not the other (?:one|\w+)|no el otro|n[ãa]o o outro|nicht (?:der|die|das) andere)\b|"
    # not that one, the other ("oups, pas celui-là, l'autre: clandry69", "no ese, el otro", "not that one, the other")
    r"\b(?:pas (?:celui|celle|ceux|celles)-l[àa]|not that one|no es[ea]|n[ãa]o ess[ea])\s*[,;:\u2014\u2013-]\s*(?:l'autre|the other|el otro|la otra|o outro|a outra)\b|"
    r"\bc'(?:est|était|etait) pas (?:le |la |les |l')?[^,.;!?\n]{1,40},\s*c'(?:est|était|etait)\b|"
    # (and in other languages: "es FINOPS-5692, no FINOPS-5962", "é o PIT-7530, não o PIT-7503", "c'est le 5, pas le 4")
    # (or a name joined by "-" or "_": "sp-closed, não closed-sp")
    # (or by "." between words: "é br.com.pitanga.app.OrdersWidget não br.com.pitanga.app.OrderWidget"; at the start, with
    # the kind of thing after the name: "notify-gb-bfp queue, not gb-mails-high")
    r"(?<![\w.@:/+-])(?=[\w.@:/+-]*(?:\d|[^\W_][-_.][^\W_]))[\w.@:/+-]+,? (?:not|no|n[aã]o|pas|nicht|non|nie|niet|inte|ikke|bukan) "
    r"(?:(?:the|el|la|le|lo|il|o|a|der|die|das|de|het) )?(?=[`'\"]?[\w.@:/+-]*(?:\d|[^\W_][-_.][^\W_]))|"
    r"^\W*(?=[\w.@:/+-]*(?:\d|[^\W_][-_.][^\W_]))[\w.@:/+-]+ (?:queue|branch|bucket|table|host|server|node|cluster|topic|"
    r"image|tag|version|db|database|repo|project|channel|env|region|port|file|folder|dir|index|job|service|svc|pool|"
    r"account|key|user|group|vlan|site|schema|warehouse|model|dashboard|endpoint|stream|consumer),? "
    r"(?:not|no|n[aã]o|pas|nicht|non|nie|niet) "
    r"(?:(?:the|el|la|le|lo|il|o|a|der|die|das|de|het) )?(?=[`'\"]?[\w.@:/+-]*(?:\d|[^\W_][-_.][^\W_]))|"
    # ... under one name said twice ("address is Oostzeedijk 385, not Oostzeedijk 358", "EUR 7.4 million, not EUR 7.1 million")
    r"(?<![\w.@:/+-])(?P<said>[A-Za-z\u00c0-\u024f][\w.-]*) [\w.@:/+-]*\d[\w.@:/+-]*(?: [a-z]+)?,? not (?:the )?(?P=said) [`'\"]?[\w.@:/+-]*\d|"
    r"I gave you the wrong|\b(?:pasted|gave|sent|said|used|typed|wrote|quoted|linked|named|picked|had|read|copied|took|looked at) (?:you |me )?(?:the |a )?wrong\b|wrong (?:" + WRONG_WHAT + r")|"
    # at the start, with a word between ("quick one: wrong parent ticket before, it's HD-167843", "ugh wrong project, ...")
    r"^\W*(?:[\w ]{1,20}:\s*)?(?:(?:ugh|oh|oops|ah|argh|so|ok|okay)\W+)?wrong (?:[\w-]+ )?(?:" + WRONG_WHAT +
    r"|project|repo|dataset|account|channel|link|folder|model|run|job|ip|person|user|hash|cve|domain|vlan|case|incident|"
    r"tenant|site|office|date|day)\b|"
    # wrong and any one thing, then a comma: what follows is the one meant ("wrong cohort, sorry: February 2023 cohort"),
    # and the same said after the thing in Portuguese, Spanish and Italian ("canal errado, é #app-releases")
    r"^\W*(?:[\w ]{1,20}:\s*)?(?:(?:ugh|oh|oops|ah|argh|so|ok|okay|also|and|btw)\W+){0,2}(?:wrong (?!again\b|way\b|turn\b)[\w-]+|[\w-]+ (?:errad[oa]|equivocad[oa]|"
    r"sbagliat[oa]))\s*[,:;\u2014\u2013]\s*(?=\w)|"
    # not X, it is Y, in Spanish, Portuguese and French ("btw no es el pe-esc-07, es el pe-esc-08", "não é o X, é o Y",
    # "pas le VLAN 403, le VLAN 409")
    r"\bno (?:es|era) (?:el |la |los |las |lo )?[^,.;!?\n]{1,40},\s*(?:es|era)\b|\bn[ãa]o (?:é|era) (?:o |a |os |as )?"
    r"[^,.;!?\n]{1,40},\s*(?:é|era)\b|\bpas (?:le |la |les |l')[^,.;!?\n]{1,40},\s*(?:le|la|les|l')|"
    # in Italian: "non è X, è Y", "non rstudio-card-06 ma rstudio-card-03" ("lascia perdere X, ..." opens the regex)
    r"\bnon (?:è|era) (?:il |la |lo |l')?(?=[^,;!?\n]{0,40}?[\w.@:/+-]*\d)[^,;!?\n]{1,40},\s*(?:è|era)\b|"
    r"\bnon (?:(?:il|la|lo|l'|i|gli|le) ?)?(?=[\w.@:/+-]*\d)[\w.@:/+-]+,? ma (?:(?:il|la|lo|l'|i|gli|le) ?)?(?=[\w.@:/+-]*\d)|"
    # (the same in Dutch and Polish: "niet airflow-worker-03 maar airflow-worker-08", "nie 3.51.5 tylko 3.51.6")
    r"^\W*(?:(?:nee|nie|sorry)\W+)?(?:niet|nie) (?:(?:de|het|op|na|w|z) )?(?=[\w.@:/+-]*\d)[\w.@:/+-]+,? (?:maar|tylko|lecz) "
    r"(?:(?:de|het|op|na|w|z) )?"
    r"(?=[\w.@:/+-]*\d)|"
    # mixed up, a typo ("Je mélangeais avec une autre école", "I typo'd it before")
    r"\bje (?:m[ée]langeais|confondais)\b|\bj'ai (?:m[ée]lang[ée]|confondu)\b|\btypo'?e?d\b|"
    # "not that one \u2014 NVF-EDGE-6652": the one meant, at the start
    r"^\W*(?:(?:ugh|oh|oops|ah|argh|no|so|ok|okay|hmm|sorry)\W+)?not (?:that|this) one\b|"
    # not that thing, then the one meant ("not that warehouse, use REPORTING_L_WH, XS times out")
    r"^\W*(?:(?:ugh|oh|oops|ah|argh|no|so|ok|okay|hmm|sorry|wait)\W+)?not (?:that|this) [\w-]+\s*[,;:\u2014\u2013]\s*"
    r"(?:use|it'?s|it is|take|pick|go with|the right one is)\s+[`'\"]?(?=[\w.@:/+-]*[\d_./-])|"
    # wrong and what, then the right value ("wrong cost centre for the fair: CC-4765")
    r"^\W*(?:(?:ugh|oh|oops|ah|argh|so|ok|okay|also|and|btw)\W+){0,2}wrong (?:[\w-]+ ){0,2}[\w-]+(?: for [\w'&. -]{1,30})?\s*[:,\u2014\u2013]\s*"
    r"(?:sorry\s*[:,]?\s*)?(?:it'?s |it is |should be |i meant )?[`'\"]?(?=[\w.@:/+-]*\d)|"
    r"not the (?:one|\w+) I (?:said|mentioned|gave)|the other (?:one|\w+) I (?:said|mentioned|gave|meant)|"
    r"\b(?:was|is) (?:wrong|a typo|incorrect|outdated|deprecated|obsolete)\b|"
    # the value meant, set against what the user said before ("it's 2025-06-09 at 09:20, not what I told you")
    r"\bnot (?:what|the one) I (?:told you|said|gave you|sent you|wrote)\b|"
    # the same in other languages, the value meant after it ("la VLAN que te dije está mal: es la 2523"; not "Tom dice
    # que el JE-MX01-890779 está mal, ¿lo revisas?"), and
    # a value said for someone else ("la que te pasé era de otro cliente", "the one I gave you was another customer's")
    r"\b(?:est[áa]|estaba|estava|era|es|é|est|était|ist|war|è) (?:mal|errad[oa]|equivocad[oa]|incorrect[oa]|faux|"
    r"fausse|falsch|sbagliat[oa]|errat[oa])\s*[:,;\u2014\u2013-]\s*(?:es|era|é|c'est|ist|è|it'?s|the right one is)\b|"
    r"\b(?:te (?:pas[ée]|di|dije|mand[ée]|passei|dei|mandei)|I (?:gave|sent|passed)(?: you)?|I said)\b[^.;:\n]{0,20}?"
    r"\b(?:era|é|foi|was) (?:(?:de|do|da|del) (?:otr[oa]|outr[oa])|(?:for )?(?:another|a different|someone else'?s)) \w+|"
    # the other of two, named by what sets it apart ("oye, other transit, the Telmex one: 201.151.167.135")
    r"^\W*(?:(?:oye|hey|oh|ah|so|ok|okay|hmm|wait|no)\W+)?(?:the )?other [\w-]+,? the [\w-]+ one\b|"
    # Hindi in Latin letters: "galat bucket yaar, kj-mysql-archive-mkrw wala", "arre nahi, the DB is shop_live", "8081
    # nahi, 8018 hai"
    r"^\W*(?:(?:arre|are|oh|ah|ok|haan|acha|accha)\W+)?(?:galat|nahi|nahin|nai)\b(?=\s*(?:yaar|bhai)?\s*[,.!:\u2014\u2013-])|"
    r"^\W*(?:[\w ]{1,20}:\s*)?galat (?:[\w-]+ ){0,2}(?:yaar|bhai|tha|hai|bataya|bola|likha)?\b|"
    r"(?<![\w.@:/+-])(?=[\w.@:/+-]*[\d_])[\w.@:/+-]+ (?:nahi|nahin)(?: (?:re|yaar|bhai))?\s*[,;\u2014\u2013-]\s*[`'\"]?"
    r"(?=[\w.@:/+-]*[\d_])|"  # ("8081 nahi, 8018 hai", "rzp_settlement_logs nahi re, rzp_settlements_log")
    # a typo owned at the end ("BR48-2309-2298 for the left motor controller, typo before")
    r",\s*(?:my )?typo(?: before| earlier| above| from before| on my side)?\W*$|"
    # a name set aside first, then the one meant ("not floor_marker_reader, it's people_tracker that's slow to start")
    r"^\W*(?:(?:ugh|oh|ah|so|ok|okay|hmm|sorry|wait|no)\W+)?not [`'\"]?(?=[\w.@:/+-]*[\d_./])[\w.@:/+-]+[`'\"]?,?\s+"
    r"(?:it'?s|it is|it was|that'?s|but)\s+[`'\"]?(?=[\w.@:/+-]*[\d_./])|"
    # an apology set off by a dash in the middle of a message, then the value meant ("fix the typo in X \u2014 sorry,
    # reporting.exec_summary_v2 \u2014 ...")
    r"[\u2014\u2013]\s*sorry\s*[,:]\s*[`'\"]?(?=[\w.@:/+-]*\d)|"
    r"^\W*(?:(?:ugh|oh|hmm|ok|so|and|but)\W+)?[\w'&. -]{2,40}? actually (?:is|are|was|were|renews|starts|ends|runs|lives|"
    r"goes|sits|has|uses|needs|costs|expires|closes|opens|lands|ships)\b|"
    r"\bthe \w+ (?:I|we) (?:gave|sent|told|mentioned|said)(?: (?:to )?you)?(?: for [\w'&. -]{1,40})? (?:was|is) (?!right\b|correct\b|fine\b)|(?:^\W*(?:(?:hi|hey|hiya|hello|yo|ok|okay|right|oh|ah|so|sorry)\W+){0,2}|^[\w ]{1,20}:\s*)(?:(?:it'?s|es|c'est|das ist|é|è) )?(?:the other|la otra|el otro|l'autre|"
    r"die andere|der andere|das andere|a outra|o outro|l'altra|l'altro)(?! (?:day|night|week|morning|evening|afternoon|"
    r"time|way|side|hand|half|end)\b) \w+\b|"
    # (the other one, said to be it, then the value: "c'est l'autre, 34,5 N·m. désolé", "it's the other, F-HZUP"; not
    # "The other: 12 tests failed on main.")
    r"\b(?:it'?s|c'est|es|das ist|[ée]|[èe]) (?:the other(?: one)?|la otra|el otro|l'autre|die andere|der andere|das andere|"
    r"a outra|o outro|l'altra|l'altro)\s*[,:\u2014\u2013]\s*[`'\"]?(?:(?=[\w.@:/+-]*\d)|(?=[A-Z]{1,3}-[A-Z]{3,5}\b))|\binstead of [`'\"]?[\w.@:/+-]*\d|, not [`'\"]?[\w.@:/+-]*\d[\w.@:/+-]*[`'\"]?\s*[.!]?$|"
    r"^\W*not [`'\"]?\S+[`'\"]?,? but\b|"
    # the value said taken back first, then the one meant, in these languages ("non la Sala Isola 6B, è la Sala Isola
    # 6D", "no es la sala 6B, es la 6D", "nicht Raum 6B, sondern 6D", "not room 6B, it's 6D")
    r"^\W*(?:(?:ugh|oh|ah|so|ok|okay|hmm|sorry|wait)\W+)?(?:not|non|no|nicht|pas|n[ãa]o)\b(?: (?:es|[éè]|est|ist|is)\b)?"
    r"(?! (?:sure|yet|really|much|only|all|even|every\w*|errors?|issues?|problems?|more|longer|later|before|after|until|"
    r"rush|worries|hurry|pressure|idea|need|way|change|news|luck|reply|response|answer)\b)"
    r"[^,;\n]{0,40}?[\w.@:/+-]*\d[\w.@:/+-]*[^,;\n]{0,20}[,;\u2014\u2013]\s*(?:it'?s|it is|[èé]|es|c'est|sondern|ma|mas|"
    r"pero|sino|aber)\b[^,;\n]{0,40}?[\w.@:/+-]*\d[\w.@:/+-]*|"
    # the value meant set against the one said, at the start ("argh it's w.schmitt, not w.schmidt")
    r"^\W*(?:(?:argh|ugh|oh|ah|oops|whoops|sorry|hmm|ok|okay|so|wait)\W+){0,2}(?:it'?s|it is|that'?s|that is|should be) "
    r"[`'\"]?[\w.@:/+-]+[`'\"]?,? not [`'\"]?[\w.@:/+-]+|"
    # a sigh, then the value said again ("ugh the cve is CVE-2023-49688. can you rerun")
    r"^\W*(?:argh|ugh|oops|whoops|d'?oh)\W+(?:(?:so|ok|okay|no)\W+)?(?:the [\w -]{1,30}? (?:is|was|should be)|it'?s|it is) "
    r"[`'\"]?(?=[\w.@:/+-]*\d)|"
    # a value said again in place of the one before it, at the start ("change that to judo on Tuesdays at 16:45",
    # "ok move it to Thursday 10:00"): what "that" was is found by the words the two share
    r"^\W*(?:(?:ok|okay|oh|ah|so|hmm|and|but|pls|please|can you|could you|let'?s)\W+){0,2}(?:change|switch|move|update|set|put|bump) "
    r"(?:that|it|this|those|them) (?:to|for|over to|back to)\b|mixed (?:them|these|those|it|that|the \w+) up|mix(?:ing)? (?:them|these|those|the two) up|(?:is|was) the right (?:one|\w+)\b|"
    r"should (?:have been|be)\b.{0,40}\bnot\b|instead of what I said|rather than what I said|"
    r"je voulais dire|ich meinte|(?:hab(?:e)?|hatte) mich (?:vertan|geirrt|vertippt|verschrieben|verz[äa]hlt)|quise decir|quer[ií]a decir)\b",
    re.IGNORECASE)

# Words that make a sentence a rule only when it does not ask for something done now ("make sure the
# build passes" asks; "make sure every new endpoint has a test" is a rule: it has a word of the next list).
# A rule's lead-in ("Ground rules:", "House style:", "Reminder:") and a sentence opened by "keep" (not "keep
# going"): what follows holds from then on.
# (a label may say what it holds for: "general rule for this project: show shares not counts ...")
# (in the user's other languages too: "Altra cosa di stile: i numeri da uno a nove in lettere, ...", "Regel: ...")
_RULE_LEAD = re.compile(r"^\W*(?:[\w ]{0,30}\b(?:rules?|policy|policies|constraints?|guidelines?|conventions?|style|"
                        r"regol[ae]|regla|reglas|regras?|r[èe]gles?|(?<!in der )regeln?|regels|zasad[ay]|kural(?:lar)?[ıi]?|stile|estilo|stil|"
                        r"stijl|styl|convenzion[ei]|convenci[óo]n|conven[çc][ãa]o|konvention|conventie|konwencja|"
                        r"reminder|heads up|fyi|standing order|important|importante|wichtig|viktigt|viktig|vigtigt|belangrijk)(?: (?:for|on|in) [\w' -]{1,30})?\s*:|(?:(?:btw|also|oh|and|ps|p\.s\.|fyi|so|ok|okay)\W+)*"
                        r"(?:please\s+)?keep\b(?!\s+(?:going|looking|at it|on|up|"
                        r"me posted|digging|trying)\b))", re.IGNORECASE)
# What to do first whenever a kind of work is done ("Before failing over auth-redis-9, page the database on-call",
# "whenever a job fails, ping #data", and in the user's own words "before you deploy, run the tests"): a rule for
# every time. "before lunch can you ...", "Before we start, here's the context" and "after the migration, check
# X" ask once; a product document's "Before you change SSO, tell your admins: ..." tells its readers.
_PRECONDITION = re.compile(
    r"^\W*(?:(?:and|also|so|oh|btw|ok|okay|ps|p\.s\.|fyi|reminder|note)\W+)*(?:before\s+(?:(?P<you>you|anyone|someone)\s+\w+|"
    r"[a-z]+ing\b|(?:a|an|any|every|each)\s+\w+)|(?:whenever|every time|each time|any ?time|after (?:any|every|each))\s+\w+)"
    r"[^,.;!?]{0,80},\s*(?:always\s+|first\s+)?(?:please\s+)?(?:page|ask|run|check|notify|tell|ping|get|wait|make sure|"
    r"take|snapshot|back ?up|post|announce|confirm|email|open|file|double-check|verify|drain|stop|pause|warn|loop in|cc)\b",
    re.IGNORECASE)
_STRONG_RULE = re.compile(r"^\W*(?:[A-Z ]*\b)?(?:SAFETY|SECURITY|NEVER|MUST|CRITICAL|HARD CONSTRAINT)\b|\b(?:never|must not|"
                          r"mustn'?t|do not|don'?t(?!\s+(?:know|think|care|worry|see|have|mind|remember|understand|get|"
                          r"need|recall|believe|expect))|under no|forbidden|not allowed|jamais|nie|niemals|nunca)\b",
                          re.IGNORECASE)


def is_strong_rule(sentence: str) -> bool:
    """A rule that forbids or that the user labelled a safety or hard rule: it outranks other rules."""
    return bool(_STRONG_RULE.search(sentence))


_WEAK_RULE = re.compile(r"\b(?:make sure|at least|at most|(?<!\bI )remember|note that|avoid|don'?t forget|"
                        r"ensure|be careful|careful)\b|"
                        # a limit in other languages, with its number ("maximal 2 dask-Worker", "höchstens 4 Knoten", "au
                        # maximum 3 jobs", "como máximo 2 réplicas", "al massimo 5 query")
                        r"\b(?:maximal|h(?:ö|oe)chstens|mindestens|au (?:maximum|minimum|plus|moins)|como (?:m[áa]ximo|"
                        r"m[íi]nimo)|m[áa]ximo|no (?:m[áa]ximo|m[íi]nimo)|al (?:massimo|minimo)|almeno) \d", re.IGNORECASE)
_WEAK_NEEDS = ("make sure", "at least", "at most", "remember", "note that", "avoid", "forget", "ensure", "careful",
               "maximal", "chstens", "mindestens", "au m", "au plus", "ximo", "nimo", "al m", "almeno")
# "no" that forbids nothing: "no rush", "no worries", "no idea" ("oh and one more thing, no rush").
# (nor a verb denied in Spanish or Portuguese, its pronoun first: "..., no me acuerdo cómo quedó", "no lo encuentro")
_NO_IDIOM = (r"(?!rush\b|worries\b|problem|idea\b|need\b|hurry\b|pressure\b|luck\b|big deal\b|way\b|longer\b|"
             r"change|issues?\b|errors?\b|one\b|matter\b|clue\b|doubt\b|stress\b|biggie\b|"
             r"(?:me|te|se|lo|la|le|les|nos|los|las)\s)")
# Where a house convention holds ("in this repo", "here", "on this team").
_HOUSE = r"(?:(?:in|on|for|at) (?:this|our) (?:repo|repository|project|codebase|code base|team|org|company|shop|house|office)|here|around here)"
# A rule: words that forbid, require or prefer, or speak of what holds from now on, in every case.
_RULE = re.compile(
    r"\b(?:never|(?<!\bas )always|must|mustn'?t|do not|(?<!\bso we )(?<!\bso i )(?<!\bso you )(?<!\bso it )"
    r"don'?t(?!\s+(?:know|think|care|worry|see|have|mind|remember|understand|"
    r"get|need|recall|believe|expect)\b)(?!\s+ask\W*(?:\)|$))|forbidden|not allowed|under no|required|requires?\b|"
    r"from now on|from here on|from today on|from this point on|as of now|henceforth|going forward|by default|as a rule|"
    # the same in other languages ("a partir de agora, todo build de release com bitcode desligado", "ab jetzt ...",
    # "d'ora in poi ...", "désormais ..."), and no case left out ("sem exceção", "no exceptions")
    r"a partir de (?:agora|ahora|hoje|hoy|maintenant)|de (?:agora|ahora) en adelante|de agora em diante|"
    r"daqui (?:pra|para) frente|d'ora in (?:poi|avanti)|da (?:ora|adesso|oggi|qui) in (?:poi|avanti)|de aqu[ií] en adelante|"
    r"daqui em diante|d[ée]sormais|dor[ée]navant|"
    r"ab (?:jetzt|sofort|heute)\b|von nun an|no exceptions?\b|without exceptions?\b|sem exce[çc][ãa]o|sin excepci[óo]n|"
    r"sans exception|ohne ausnahme|senza eccezion[ie]|zonder uitzondering|bez wyj[aą]tk[uó]w|"
    # "no dynamic framework downloads ever", "so no force-pushes, ever"
    # (a name in code among its words: "no bare `go func()` in handlers, ever")
    r"(?:^|[,;:\u2014]\s*|\bso\s+)no " + _NO_IDIOM + r"`?[\w-]+(?:\(\))?`?(?: `?[\w.-]+(?:\(\))?`?){0,4},? ever\b"
    r"(?=\s*(?:[.,;:!)\u2014\u2013-]|$))|"  # (its clause ends there: "no `retry()` call ever reaches ..." tells)
    # a wish for every one of a kind ("would be nice if every Play release started as a 7% staged rollout")
    r"(?:would|'d) be (?:nice|great|good|better|ideal) if (?:every|each|all|any)\b|"
    r"no more than|only ever|stick to|"
    r"i'?d (?:rather|prefer)|i (?:prefer|want you to|need you to)|(?:would|'d) rather|prefer(?:ably)?\b|"
    r"i (?:really )?(?:like|love|hate|dislike|can'?t stand|don'?t like) it when you|"
    # whatever someone else says ("das work-Verzeichnis bleibt, egal was die Wiki sagt", "..., digan lo que digan")
    r"egal was\b|digan lo que digan|diga o que disser|digam o que disserem|quoi qu'(?:on|il|elle) (?:en )?dise|"
    r"whatever (?:\w+ ){0,3}says?\b|no matter what (?:\w+ ){0,3}says?\b|"
    # "no more autoloads please", "so no more force-pushes": what is not to be done again
    r"(?:^|[,;:\u2014]\s*|\bso\s+)no more (?!than\b|questions?\b|time\b|rush\b|worries\b|room\b|space\b|budget\b|"
    r"money\b|data\b|need\b|idea)[a-z]|"
    # a limit said by what breaks past it ("the Deck chokes when we go over 1500 draw calls", "the admins get cranky if a
    # job asks for more than 64G", "the Switch devkit falls over once we pass 2800 MB resident")
    # (and who is upset when a thing happens, in any language: "sales go crazy if the VPN goes down in office hours",
    # "los de ventas se ponen como locos si el VPN ... se cae", "die Disponenten drehen durch, wenn ...")
    # (people, not a tool: "The parser goes nuts when there's a BOM", "I'll go crazy if this build fails again")
    r"\b(?:sales|customers|clients|users|people|folks|team|teams|ops|finance|legal|management|managers|admins|auditors|"
    r"ventas|clientes|usuarios|gente|jefes|pessoal|usu[áa]rios|utilisateurs|gens|chefs|kunden|nutzer|leute|disponenten|"
    r"clienti|utenti|capi)\b[^.;!?]{0,30}?"
    r"(?:\bgo(?:es)? (?:crazy|nuts|ballistic|mental)|\bgets? (?:cranky|angry|upset|mad|grumpy|nervous|furious)|"
    r"\bfreaks? out|se ponen (?:como locos|nerviosos|furiosos)|se vuelven locos|se enojan|se molestan|"
    r"ficam (?:loucos|malucos|bravos|irritados|furiosos)|surtam|deviennent fous|s'[ée]nervent|p[èe]tent un c[âa]ble|"
    r"drehen durch|werden sauer|flippen aus|regen sich auf|impazziscono|si arrabbiano|vanno fuori di testa)"
    r"(?:,\s*|\s+)(?:if|when|whenever|si|cuando|se|quando|quand|wenn|sobald)\s+\w|"
    r"(?:chokes?|falls? over|dies|crash(?:es)?|melts?|throttles?|ooms?|gets? (?:cranky|angry|upset|mad|grumpy))\b"
    r"[^.;?!]{0,40}\b(?:once|when|if|whenever|as soon as)\b[^.;?!]{0,40}?(?:\bpass(?:es)?|\bgo(?:es)? (?:over|above|past)|"
    r"\bexceeds?|\bhits?|\breach(?:es)?|\bcross(?:es)?|\babove|\bmore than|\bover)\b[^.;?!]{0,20}\d|"
    # a preference said as what would help ("it'd help if your final summaries stayed under 3 bullet points, i read
    # them between meetings", "it would be great if you kept PRs small")
    # (not a favour asked once: "it would help if you could check the logs now")
    r"(?:it'?d|it would|it (?:really )?helps)(?: (?:me|us))? (?:help|be (?:nice|great|good|better|easier)) if (?:you|your)"
    r"\b(?!\s+(?:could|can|would)\b)|it (?:really )?helps (?:me |us )?if (?:you|your)\b(?!\s+(?:could|can|would)\b)|"
    r"i'?d appreciate it if you\b(?!\s+(?:could|can|would)\b)|"
    # (not in a reason: "..., since we want the same version everywhere")
    r"(?<!since )(?<!because )(?<!\bas )(?<!\bif )we (?:use|(?<!\bso we )don'?t|never|always|tend to|keep|prefer|stick|follow|avoid|"
    r"only|do not|go with|write|put|want)|"
    # (the same in Polish and Dutch: "Do zapytań o kliki używamy clicks.search_events_v6", "we gebruiken hier tabs")
    r"(?<!czy )\b(?:u[żz]ywamy|stosujemy)\b|\b(?:we gebruiken|gebruiken we)\b|"
    r"(?:our|the) (?:convention|policy|rule|standard|style)|"
    # the same in other languages ("la risposta standard è ...", "la respuesta estándar es ...", "die Standardantwort
    # ist ...", "a regra é ...")
    # (an answer's or a procedure's, not a tool's default: "O timeout padrão é 30 segundos"; a rule said to be what
    # follows, not a lint rule that breaks: "La regla es demasiado estricta")
    r"\b(?:la|il|el|le|lo|o|a)\s+(?:risposta|respuesta|r[ée]ponse|resposta|procedura|procedimiento|proc[ée]dure|procedimento)"
    r"\s+(?:standard|est[áa]ndar|padr[ãa]o)\s+(?:[èe]|es|est|é)\s|"
    r"\b(?:la|a) (?:regola|regla|r[èe]gle|regra|norma) (?:[èe]|es|est|é)\s*(?::|que\b|che\b)|"
    r"\bstandardantwort\b|\bdie regel (?:ist|lautet)\s*(?::|dass\b)|"
    # what to do whenever a third party asks ("if a candidate asks about remote work, we say ...", "se un candidato
    # chiede ..., ...", "wenn ein Kunde nach ... fragt, ..."), whoever it is
    r"^\W*(?:(?:oh|and|also|btw|so|ah|y|e|und|et)\W+)?(?:if|when(?:ever)?|se|si|wenn|falls|quand|cuando|quando)\s+"
    r"(?:a|an|any|some|un|una|uno|um|uma|ein|eine|einer|someone|somebody|anyone|anybody|qualcuno|alguien|algu[ée]m|"
    r"jemand|quelqu'un)\s+(?:[^\W\d_]+\s+){0,2}?(?:asks?|chiede|domanda|pregunta|pide|fragt|demande|pergunta|pede)\b"
    # (what we or you then say or do, not what breaks: "When a customer asks for a CSV export, the job times out")
    r"[^.;!?]{0,80}[,:]\s*(?:(?:then|alors|entonces|ent[ãa]o|dann|allora)\s+)?(?:we|you|tell|say|answer|reply|respond|send|"
    r"point|refer|offer|escalate|forward|nous|on|wir|noi|nosotros|n[óo]s|vous|tu|du|dis|dites|r[ée]ponds|dile|diles|"
    r"responde|contesta|diga|responda|sag|antworte|di|d[ìi]gli|rispondi|la risposta|la respuesta|la r[ée]ponse|a resposta|"
    r"die antwort|ist die|the (?:standard|usual) answer)\b|"
    # what to do if a thing goes wrong, then ask ("se morrer por memória, dobra uma vez e depois me pergunta", "if it
    # OOMs, double the memory once and then ask me"): how far to go alone
    # (a failure's, not a one-off step's: "If the tests pass, merge it and then ask me about the release notes")
    r"^\W*(?:if|se|si|wenn|falls|quand|cuando|quando)\b(?=[^,:.;!?]{0,80}(?:\bfail|\bdie|\bdies\b|\bmorre|\bmuere|\bcrash|"
    r"\boom|\bbreak|\btimes? out|\berror|\bfalla|\bplante|[ée]choue|st(?:ü|ue)rzt|scheitert|\bfallisce|\bmuore|\bquebra|"
    r"\bcai\b|se cae))[^.;!?]{3,80}[,:][^.;!?]{3,80}\b(?:then|depois|luego|dann|puis|poi)"
    r"\s+(?:ask me|me pergunt[ae]|me preguntas|preg[uú]ntame|frag mich|fragst du mich|demande-moi|tu me demandes|"
    r"chiedimi|mi chiedi)\b|"
    # a rule in other languages by what it requires ("Todo asiento manual superior a 85k requiere segunda firma", "...
    # richiede una seconda firma", "... erfordert ...", "... nécessite ..."), or says is mandatory
    # (of every one of a kind: not "Esto requiere más investigación"; said to be so: not "make the field mandatory")
    r"\b(?:todo|toda|todos|todas|cada|cualquier|qualquer|ogni|qualsiasi|tutti|tutte|jede[rsnm]?|alle|tout|toute|tous|"
    r"toutes|chaque)\b[^.;!?]{0,80}?\b(?:requieren?|requerem|requer|richiedono|richiede|erfordert|erfordern|n[ée]cessitent|"
    r"n[ée]cessite)\b|"
    r"\b(?:is|are|es|son|é|s[ãa]o|est|sont|[èe]|sono|ist|sind)\s+(?:\w+\s+)?(?:mandatory|compulsory|obligatori[oa]s?|"
    r"obrigat[óo]ri[oa]s?|obbligatori[oa]|obligatoires?|verpflichtend|pflicht)\b(?![^.;!?]*\bbut\b)|"
    r"please (?:always|never|stick|only|don'?t|do not|no\b|reply in|answer in|respond in)|"
    r"keep (?:answers|replies|responses|things|each|every|all|prs?|commits?|the \w+ (?:under|below|short))|"
    r"off[- ]limits|needs? (?:an?|to|the) (?:entry|review|approval|sign-?off|test)|(?:is|are|get) rejected|change freeze|(?<!before the )(?<!after the )(?<!during the )(?<!until the )freeze\b|until further notice|"
    # how long a habit holds ("tag every ticket you close ..., at least till end of quarter"); a one-off task's
    # date is no rule ("extend the trial until the end of the month"), nor is a plan's ("for the rest of the week
    # I'd like to compare ..., then ...")
    r"\b(?:every|each|any|all)\b[^.;!?]*?\b(?:till|until) (?:the )?end of (?:the |this )?(?:day|week|month|quarter|year|sprint|release|project)\b|"
    r"at least (?:till|until)\b|without (?:asking|pinging|checking with|telling) me|"
    r"unless (?:i|we) (?:say|tell you) (?:otherwise|so)|unless told otherwise|"
    r"(?:for|in) (?:anything|everything|all|every|each|any) (?:new|code|change|file|commit|test|report|chart)|"
    # an order for every one of a kind ("for anything we compare against the baseline keep global batch 112 seqs")
    r"\bfor (?:anything|everything|all|every|each|any)\b[^.;!?]{0,60}?\b(?:keep|use|stick to|always|never)\b|"
    # a state held for a while ("the loyalty-api HPA stays pinned at min 13 replicas while the migration runs")
    r"\b(?:stays?|remains?) (?!the same\b|to be\b)[^.;!?]{0,60}?\b(?:while|until|till|during|for the rest of)\b|"
    # what every one of a kind gets ("every table in the appendix gets a takeaway"), a house convention
    # (after a few words or the reason for it: "Because the auditors sampled our accruals ..., every accrual above
    # €8,750 gets a supporting document")
    r"^\W*(?:(?:oh|and|also|btw|so|ok|okay|plus)\W+)*(?:[\w' ]{1,25},\s*|(?:because|since|as|given that)\b[^.;!?]{5,200},\s*)?"
    r"(?:every|each|all|any|anything|everything|whatever) (?:[\w' \u20ac$\u00a3%/-]|(?<=\d)[.,](?=\d)){2,40}? (?:gets?|has|have|needs?|goes|go|"
    r"uses?|should|must|stays?|carries|carry|starts?|ends?|includes?|comes?|sits?|lives?)\b|"
    r"^\W*(?:(?:oh|and|also|btw|so|ok|okay|plus)\W+)*when(?:ever)? (?:you|we) (?!can\b|have time\b|get a (?:chance|minute)\b|'re done\b|are done\b|finish)\w+|"
    r"house (?:style|rule|convention)|as a standing rule|(?:this is|that'?s|it'?s) (?:a|our) standing rule|(?:it'?s|that'?s) (?:the|our) (?:style|convention|norm|standard)\b|"
    r"every time|each time|whenever|even when|for now on|whoever (?:is|picks|takes|handles|gets)\b|no matter (?:who|when|which)\b|"
    r"it matters to me|(?:^|[,;:\u2014\u2013]\s+)no " + _NO_IDIOM + r"\w+(?:,|;|$)|\b\w+ only[,;.]|"
    # a clause that forbids ("..., no hardcoded English in components", "..., no package-level globals)")
    r"[,;:\u2014\u2013]\s+no " + _NO_IDIOM + r"[\w-]+(?: [\w-]+){0,4}[.)]?\s*$|"
    # a house convention stated of a kind of thing, with no article ("commit messages start with the area",
    # "Public functions in web/src/api declare explicit return types", "new Go code gets its deps through ...")
    # (also where it holds: "in this repo, commit messages start with ...", "branch names here start with feat/")
    r"^\W*(?:" + _HOUSE + r",?\s+)?(?!(?:the|these|those|this|that|my|your|our|its|their|his|her|some|two|three)\b)"
    r"(?:(?:new|public|private|internal|all|user-facing)\s+)*(?:[\w`-]+\s+){0,2}(?:messages|msgs|names|functions|methods|"
    r"strings|files|tests|commits|branches|titles|endpoints|columns|charts|dates|logs|docs|code|PRs|tickets|"
    r"migrations|handlers|queries|types)(?:\s+(?:in\s+[\w/.`-]+|" + _HOUSE + r"))?\s+(?:start|begin|end|go through|use|"
    r"follow|declare|live in|stay|carry|include|gets?|need|must|should)\b|"
    # what is done here, said of us ("in this repo we squash merge", "here we deploy on tuesdays")
    r"^\W*(?:(?:oh|and|also|btw|so|ok|okay|plus)\W+)*" + _HOUSE + r",?\s+we (?!(?:are|were|go|got|have|had|need|could|can|"
    r"should|might|may|will|did|saw|see)\b)[a-z]+\b|"
    r"(?:^|[;:] )no \w+(?:\(\))? (?:in|inside|under) |heads up|fyi\b(?!.*:\s*$)|"
    # what to do with every one of a kind from what happened ("Tideline got burned by a silent auto-renewal ...
    # last year, so flag every auto-renewal clause in Tideline contracts with a margin comment")
    r"[,;]\s*so (?:from now on |always |please |pls )?(?:[a-z]+ )?(?:every|each|any)\b|"
    # Hindi in Latin letters, as chats write it ("prod pe composer update kabhi mat chalana", "hamesha staging pe test
    # karo pehle", "mysql restart bilkul nahi", "xmlrpc band hi rakho", "koi exception nahi", "rate limit hona hi
    # chahiye", "customers table pe koi bhi migration ho toh pehle mysqldump lo")
    r"\b(?:main|hum|mai) jo bhi\b|\bcomes? (?:before|ahead of) (?:any|every|all)\b|"
    # what to do first, before any change of a kind, said first ("before any BGP policy change run commit check", "Otra
    # cosa: antes de cualquier cambio de políticas de BGP corres commit check", "avant chaque mise en prod, ...")
    r"^\W*(?:[^:\n]{1,25}:\s*)?(?:(?:also|and|oh|btw|y|e)\W+)?(?:before (?:any|every|each)|antes de (?:cualquier|cada|"
    r"todo|qualquer)|avant (?:tout|toute|chaque)|vor (?:jedem|jeder|jedes)|prima di (?:ogni|qualsiasi))\b"
    r"(?![^.;!?]*\b(?:had|was|were|did|went|got|happened|tuvimos|hubo|fue|tivemos|houve|foi)\b)|"  # (not what happened)
    r"\bkabhi (?:bhi )?(?:mat|nahi|na)\b|\bmat (?:kar|chala|chhed|bhej|laga|daal|dal|chhu|hata|badal|likh|de|le)\w{0,4}\b|"
    r"\bhamesha\b|\bbilkul (?:nahi|mat|na)\b|\bkoi (?:bhi )?exception nahi\b|\b(?:hona|karna|rehna|rakhna) (?:hi )?chahiye\b|"
    r"\b(?:band|off|on|disabled?|enabled?|alag|same) (?:hi )?rakh(?:o|na|iye|ein)\b|"
    r"\bkoi bhi\b[^.;!?]{0,60}?\b(?:ho|hai|aaye|aye|kare|kiya)\b,? (?:toh|to)\b|"
    # what each new one of a kind gets ("new hunts get the prefix hunt_q271_ so we can find them later")
    r"^\W*(?:(?:oh|and|also|btw|so|ok|okay|plus)\W+)*(?:all )?new [\w-]+s (?:get|go|use|start|begin|end|need|must|should|"
    r"carry|include|stay|are named|are called|are tagged)\b|"
    r"reminder|note that|is a no-go|not to be|is not to|only (?:use|via|through|from|in)\b|"
    # what is done at every one of a kind of event ("a file note within 18 hours of every call with Hofmann
    # Weiss", "run the linter after every change"): a habit, where "check every file in src/" is one piece of work
    r"\b(?:on|with|at) (?:every|each) (?:deploy|release|commit|push|build|merge|restart|reboot|boot|login|rollout|"
    r"upgrade|migration|sprint|standup|pr|pull request)(?:s|ment|ments)?\b|"
    r"\b(?:after|before|following|at the (?:end|start) of|within (?:\d+|an?|one|two|three|four|five|six|twelve) "
    r"\w+ (?:of|after)) (?:every|each) (?!time\b|one\b|other\b)\w+|"
    # ("stop the motor before any lidar param change"; not one time, "... before any migration runs tonight")
    r"\bbefore any (?!time\b|one\b|other\b|of\b|more\b|longer\b|case\b|way\b|number\b)\w+"
    r"(?![^.;!?]*\b(?:tonight|today|tomorrow|this (?:morning|afternoon|evening|week)|now)\b)|"
    # nothing done to a thing until a condition holds ("stuur niets naar de wederpartij voordat Daan het heeft
    # nagelezen", "send nothing to the client before ..."), said as an order, not of what happened ("we changed nothing")
    r"^\W*(?:[^:\n]{1,25}:\s*)?(?!(?:i|we|he|she|they|it|you|there|this|that)\b)(?:[\w'\u2019]+ ){1,2}"
    r"(?:nothing|niets|nichts|rien|nada|niente|nulla|inget|ingenting)\b[^.;!?]{0,80}?\b(?:before|until|unless|without|"
    r"voordat|totdat|zonder|tenzij|bevor|ohne|avant|sans|antes|sin|prima|senza|innan|utan)\b|"
    # nothing done until a condition holds, the condition first ("bis zur Wartung schicken wir nichts mit mehr als 10 h
    # Walltime ab", "until the audit ends, nothing goes to prod", "hasta el viernes, nada a producción")
    # (opening the sentence: not "I waited until noon and nothing happened"; not a goodbye, "Bis gleich", nor "nothing new")
    r"^\W*(?:[^:\n]{1,25}:\s*)?(?:bis|until|till|hasta|at[ée]|jusqu'(?:à|a)|fino a)\b(?! (?:gleich|sp(?:ä|ae)ter|dann|bald|"
    r"luego|pronto|logo|mañana|tomorrow|later|jetzt|heute|gestern|now|today|yesterday|ahora|hoy|ayer|agora|hoje|ontem|"
    r"pr[ée]sent|maintenant|aujourd'hui|hier|ora|adesso|oggi|ieri)\b)[^.;!?]{0,60}?\b(?:nichts|keine?[nmrs]?|nothing|nada|"
    r"rien|niente)\b"
    r"(?! (?:neues|new|nuevo|novo|de neuf|di nuovo)\b)|"
    # Italian: a rule said to be one ("regola nostra da oggi: ..."), and a prohibition of a thing named while a condition
    # holds ("finché il DPO non risponde, i dati riga per riga non escono da `srv-ricerca-09`"; not "finché ho tempo, non
    # mi preoccupo")
    r"\bregola (?:nostra|della casa|per noi)\b|\bfinch[ée]\b[^,;.!?]{0,60},[^.;!?]{0,80}\bnon\b(?=[^.;!?]{0,80}(?:\d|`|\w[/_.-]\w))|"
    # French
    # (not a choice sealed, "décision : X, on ne revient pas dessus": we won't go back on it)
    r"jamais|toujours|ne (?!revien(?:t|dra|drons) (?:pas|plus) (?:dessus|l[àa]-dessus|sur (?:ce|cette|notre) (?:choix|d[ée]cision))\b)"
    r"\w+ (?:pas|plus|jamais)|"
    # "no X" as an order, opening its clause ("..., aucun redémarrage de serveur avant 16h40"); not "aucun problème",
    # "aucune idée", nor what there is or was found ("il n'y a aucun ticket ouvert", "mais aucun fichier trouvé")
    r"(?:^\W*|[,:;]\s*)(?:[^\W\d_]{1,20}\s*:\s*)?aucune? (?!(?:probl[èe]me|id[ée]e|souci|rapport|doute|erreur|changement|r[ée]ponse|nouvelle|nouvelles|chance|"
    r"raison|importance|diff[ée]rence)\b)\w+|n'\w+ (?:pas|plus|jamais)|merci de|il faut|[ée]vite[rz]?\b|"
    # (and as it is spoken, without "ne": "on touche pas à la config du SSID", "L'OU ..., on y touche pas", "faut pas")
    r"\b(?:on|tu)(?: (?:y|le|la|les|lui|en))? (?:touche|touches|change|changes|modifie|modifies|red[ée]marre|red[ée]marres|"
    r"supprime|supprimes|pousse|pousses|d[ée]ploie|d[ée]ploies|efface|effaces|d[ée]sactive|d[ée]sactives|roule|roules) pas\b|"
    r"\b(?:il )?faut pas\b|\btouche(?:z)? pas\b|nulle part ailleurs|nowhere else|en ning[úu]n otro lado|em nenhum outro lugar|"
    r"interdit|pr[ée]f[èe]re|utilise[rz]? (?:toujours|uniquement|seulement)|"
    # German
    r"nie\b|niemals|immer\b|bitte (?:keine?n?|nicht|immer|verwende|nutze|nur)|keine?n?\b|nicht\b|muss\b|müssen|"
    r"darf|verwende|ausschlie(?:ß|ss)lich|nur noch|"
    # Spanish
    r"nunca|siempre|no (?:uses|hagas|toques|borres|cambies|subas|pongas|utilices|modifiques|reinicies)|"
    # a thing not to do until, while or without something, in Spanish or Portuguese ("no arrancas hasta que el NOC
    # confirme", "no le abras tickets a Transtelco mientras dure su ventana", "não mexe no Pix enquanto ...")
    r"\bno (?:(?:le|lo|la|les|los|las|me|te|se) )?[a-záéíóúñ]{3,}(?:es|as)\b[^.;!?]{0,80}?\b(?:hasta que|mientras|"
    r"sin (?:que|avisar|preguntar|consultar)|antes de que|a menos que|salvo que)\b|"
    r"\bn[ãa]o (?:(?:me|te|lhe|o|a) )?[a-zà-ú]{3,}(?:e|es|a|as)\b[^.;!?]{0,80}?\b(?:at[ée] que|enquanto|"
    r"sem (?:avisar|perguntar|falar)|antes que|a menos que)\b|"
    r"debe(?:s|mos|n)?\b|prefiero|evita|sin (?:preguntar|avisar|consultar)|solo (?:usa|con|en)|"
    # "no X", said as Spanish and Portuguese say it ("então nada de PR com mais de 250 linhas", "nada de force-push a main");
    # not "nada de novo" (nothing new)
    r"(?:^|[,;:\u2014]\s*|\b(?:ent[ãa]o|entonces|as[ií] que|por isso|por eso)\s+)nada de\s+(?!(?:nada|novo|nuevo|raro|especial|"
    r"mais|m[áa]s|errado|malo?|grave|importante|interesante|interessante)\b)\w|"
    r"utiliza siempre|usa siempre|"
    # Swedish, Danish, Norwegian, Dutch (their "not" and "no" say what is, in a law or a letter, as often as
    # what to do: "niet in de lidstaat gevestigde")
    r"aldrig|aldri\b|alltid|altid\b|nooit|altijd|voortaan|vanaf nu|"
    # a preference in Dutch, Turkish, Polish ("alerts ... liever naar #tms-alerts, niet naar #general", "tercihim: ...")
    r"\bliever\b|bij voorkeur|mijn voorkeur|\btercih(?:im|imiz| ederim| ediyorum|en)\b|\bwol(?:ę|e|ał(?:bym|abym)|alabym)\b|"
    # (but their imperative and its "no" forbid: "kör inga skanningar mot lagret ...", "rør ikke prod-databasen")
    r"\b(?:k[öo]r|g[öo]r|skicka|[äa]ndra|r[öo]r|anv[äa]nd|starta|stoppa|kj[øo]r|gj[øo]r|send|brug|bruk|r[øo]r|endre|[æa]ndr)\s+"
    r"(?:inga|ingen|inget|inte|ikke|aldrig|aldri)\b|"
    # Polish ("proszę zawsze wykluczać konta testowe", "nigdy nie ruszaj raw_orders", "od teraz ...")
    # Indonesian and Malay ("mulai sekarang query analitik jangan ke primary ya, selalu pakai replica jkt-ro-d", "gue
    # lebih suka ...", "gak boleh ...")
    # (not "harus", said of one time as often: "saya harus pergi dulu"; nor "jangan-jangan", perhaps)
    r"\bmulai (?:sekarang|hari ini|saat ini)\b|(?<!-)\bjangan\b(?!-)|\bselalu\b|\bwajib\b|\bdilarang\b|"
    r"\b(?:tidak|gak|ga|nggak|ngga|enggak|ndak) boleh\b|\bseterusnya\b|\blebih suka\b|"
    r"\bzawsze\b|\bnigdy\b|\bod (?:teraz|dzi[sś](?:iaj)?|jutra)\b|"
    # Italian, Portuguese
    r"\bsempre\b|\bmai\b|\bprefiro\b|de prefer[êe]ncia|\bpreferisco\b|preferibilmente|preferiblemente|"
    r"non (?:usare|toccare|cambiare|mettere|fare|scrivere|inviare|chiudere|"
    r"cancellare|pubblicare)\b|\bn[ãa]o (?:use|usar|mude|mexa|feche|apague|publique|envie)\b|\bevite\b)|"
    # Japanese, Chinese, Korean: from now on, always, never, must, all of them ("これからのコミットメッセージは英語で",
    # "以后所有的评测都用 greedy decoding", "另外，画图都用 cividis 配色", "앞으로 커밋은 영어로"); no word boundary, their
    # letters run on
    r"(?:これからは|これからの|今後|以後|いつも|必ず|絶対に|しないでください|禁止|を使ってください|を使うこと|"
    # (a prohibition, however casual: "本番のロボットには触らないでね", "金曜はデプロイしないで")
    r"ないで(?:ね|よ|ください|下さい|ほしい)?(?=[\s。！!、,.]|$)|"
    r"以后|今后|从现在起|一律|始终|总是|永远|务必|必须|不要|别再|所有的|都用|全都|"
    r"앞으로|항상|절대|반드시|하지 ?마)",
    re.IGNORECASE)
# Lower-cased words one of which every match of _RULE holds, but at the sentence's start (where its alternatives
# anchored by "^" match): a sentence with none of them is tried there only (most sentences are no rule, and a
# search tries each of its hundred case-blind alternatives at each word). In the order of _RULE.
_RULE_NEEDS = (
    "never", "always", "must", "do not", "don", "forbidden", "not allowed", "under no", "require", "from now on",
    "from here on", "from today on", "from this point", "as of now", "henceforth", "kabhi", "mat ", "hamesha", "bilkul",
    "exception nahi", "chahiye", "rakh", "koi bhi", "jo bhi", "before any", "before every", "before all",
    "ahead of", "a partir de", "de agora", "de ahora",
    "daqui", "d'ora", "in poi", "in avanti", "de aqu", "em diante", "sormais", "navant", "ab jetzt", "ab sofort", "ab heute", "von nun", "exce", "ausnahme",
    "eccezion", "uitzondering", "wyj", " ever", "be nice if", "be great if", "be good if", "be better if", "be ideal if",
    "going forward", "by default", "as a rule", " if you", " if your", "appreciate it if", "no more than", "only",
    "stick to", "rather", "prefer", "want you to",
    "need", "we use", "ywamy", "stosujemy", "gebruiken", "we tend", "we keep", "we stick", "we follow", "we avoid", "we go with", "we write", "we put", "we want",
    "convention", "policy", "rule", "standard", "style", "please ", "keep ", "limits", "rejected", "freeze",
    "until further notice", "end of", "at least", "without ", "unless", "stay", "remain",
    *(f"{a} {b}" for a in ("for", "in") for b in ("any", "all", "every", "each")),  # "anything", "everything" too
    "norm", "every time", "each time", "whenever", "even when", "for now on", "whoever", "no matter",
    # (each of this round's alternatives by a word every match of it holds: the upset, the answer or procedure, the
    # rule said to be what follows, the verb of asking or requiring)
    "crazy", "nuts", "ballistic", "mental", "nervous", "furious", "freak", "locos", "nerviosos", "furiosos", "enojan",
    "molestan", "loucos", "malucos", "bravos", "irritados", "surtam", "fous", "nervent", "tent un c", "drehen durch",
    "sauer", "flippen", "regen sich", "impazziscono", "arrabbiano", "fuori di testa", "risposta", "respuesta", "réponse",
    "reponse", "resposta", "procedura", "procedimiento", "cédure", "cedure", "procedimento", "regola", "regla", "règle",
    "regle", "regra", "norma", "standardantwort", "die regel", " ask", "chied", "domanda", "preg", " pide", "fragt",
    "fragst", "demande", "pergunt", " pede", "frag mich", "requier", "requer", "richied", "erforder", "cessit", "mandatory",
    "compulsory", "obligat", "obrigat", "obbligat", "pflicht", "mulai ", "jangan", "selalu", "wajib", "dilarang", "boleh",
    "seterusnya", "lebih suka",
    ", so ", "; so ", "it when you", "it matters to me", "no ", "heads up", "fyi", "choke", "falls over", "fall over", "dies",
    "crash", "melt", "throttl", "oom", "cranky", "angry", "upset", "mad", "grumpy", "egal was", "digan lo", "diga o que",
    "digam o que", "quoi qu", "whatever", "no matter", "new ", "reminder", "note that", "no-go", "not to",
    "every ", "each ", "any ", "nothing", "niets", "nichts", "rien", "nada", "niente", "nulla", "inget",
    "jamais", "toujours", "aucun", "regola ", "finch", " pas", "nulle part", "nowhere else", "otro lado", "outro lugar", " plus", "merci de",
    "il faut", "vite", "interdit", "pr\u00e9f", "pref\u00e8re",
    "utilise", "nie", "immer", "bitte ", "kein", "nicht", "muss", "m\u00fcssen", "darf", "verwende", "ausschlie",
    "nur noch", "nunca", "siempre", "debe", "prefiero", "evita", "sin ", "solo ", "aldri", "altid", " inga", " ingen", " inte",
    " ikke",
    "alltid", "nooit", "altijd", "voortaan", "vanaf nu", "liever", "voorkeur", "tercih", "wol", "prefiro", "zawsze", "nigdy", "od teraz",
    "od dzi", "od jutra", "sempre", "mai",
    "non ", "n\u00e3o ", "nao ",
    "これから", "今後", "以後", "いつも", "必ず", "絶対に", "しないでください", "ないで", "禁止", "を使ってください", "を使うこと", "以后", "今后", "从现在起", "一律", "始终",
    "总是", "永远", "务必", "必须", "不要", "别再", "所有的", "都用", "全都", "앞으로", "항상", "절대", "반드시", "하지")
# Letters a case-blind regex takes for i and s that str.lower() keeps apart from them.
_ODD_CASE = ("\u0130", "\u0131", "\u017f")


def _may_hold(sentence: str, low: str, words: tuple[str, ...]) -> bool:
    """Whether ``sentence`` (lower-cased: ``low``) holds one of ``words`` as a case-blind regex reads it."""
    return any(map(low.__contains__, words)) or (not sentence.isascii() and any(map(sentence.__contains__, _ODD_CASE)))


# A greeting or an aside of a word or two in any language, then a comma, before what a message asks ("doei, hows
# ...", "na pewno, run ...", "jutro, what rope theta ...").
# The words a chat opens a sentence with before what it says, in Spanish, Portuguese, French, German and Italian ("porfa
# checa ...", "a ver, ...", "ahorita dame ...", "então roda ...", "alors regarde ...", "jetzt check ..."): no word of it.
LEADS = (r"porfa|plis|oye|oiga|a ver|ahorita|ahora|entonces|pues|bueno|buenas|sale|[\u00e1a]ndale|[\u00f3o]rale|"
         r"ent[\u00e3a]o|olha|bom|t[\u00e1a]|beleza|blz|pera|alors|bon|[\u00e9e]coute|allez|jetzt|dann|allora|senti")
ASIDE = r"(?:[^\W\d_]+(?: [^\W\d_]+)?,\s+)?"
# Before a question, the aside may end on a colon or a dash too, and come twice ("quick one: where is
# ORD-8446194", "sorry, another one \u2014 who is cus_kh3T..."): what a question asks is asked whatever comes before it.
ASIDE_Q = r"(?:[^\W\d_]+(?: [^\W\d_]+)?(?:[,:]|\s[\u2014\u2013-])\s+){0,2}"
# Before work asked for, the same, or a word of another script on its own ("ついでに run power_smoke on hil-rig-05",
# "quick one: run ...", "jetzt: port the ota chunks code ...").
# (a choice after a label is a decision, not work asked for: "internet: lets take O2 1000 Mbit cable";
# nor are the steps a plan's label opens: "this week: finish the eval, draft section 6.5, send to marta")
ASIDE_DO = (r"(?!(?:today|tomorrow|tonight|this week|next week|plan|steps|order|first)\W)"
            r"(?:[^\W\d_]+(?: [^\W\d_]+)?[,:]\s+|[^\x00-\x7f\s]+\s+){0,2}(?!let'?s\b|lets\b)")
# A piece of work asked in Spanish or Portuguese, by its verb in the imperative, with the pronoun it may take ("sácame el
# aging ...", "dime el total", "abre la IBE25-278767 y compárala ...", "checa ospf en ...", "repítelo", "roda os testes"),
# or any verb so written, its stress marked before a pronoun it ends in ("enséñame", "échale", "revísalo"; not a noun
# such as "módulo" or "fórmula", nor a gerund, "pensándolo bien, ...").
ES_ASK = (r"(?:abr[ea]|s[aá]ca|b[aá]ja|descarga|prep[aá]ra|postea|reclasifica|actualiza|m[aá]nda|env[ií]a|b[uú]sca|"
          r"calcula|comp[aá]ra|h[aá]z|p[oó]n|cierra|concilia|genera|crea|borra|cambia|a[ñn]ade|agrega|ejecuta|exporta|p[aá]sa|"
          r"tr[aá]e|verifica|confirma|comprueba|cuadra|sube|mu[eé]stra(?=me|nos)|explica|expl[ií]ca|res[uú]me|redacta|"
          r"escribe|escr[ií]be|contesta|responde|cancela|anula|corre|l[eé]e|junta|arma|faz|fa[çc]a|coloca|puxa|atualiza|procura|"
          r"confere|ch[eé]ca|chequea|rev[ií]sa|rep[ií]te|pru[eé]ba|valida|investiga|quita|reinicia|levanta|av[ií]sa|roda|testa|"
          r"mostra)(?:me|nos|lo|la|le|los|las|melo|mela|selo|sela)?|d[aá](?:me|nos|le|melo|mela|selo|sela)|d[ií](?:me|nos|le)|"
          # (not a lead that only looks so: "órale, la ventana ... quedó ...", "ándale, ...")
          r"(?![\u00f3o]rale\b|[\u00e1a]ndale\b)[^\W\d_]*[áéíóú][^\W\d_]*?(?<!u)(?<!nd[oa])(?:me|le|lo|la|les|nos|melo|mela|selo|sela)")
# After a verb's letters, what makes the word a name's part, not a verb ("fix/tf-stamp-drift", "notify-gb-bfp",
# "run.sh", "check=false"); "Add/update tests" still asks.
JOINED_NAME = r"=|[-.]\w|/(?![a-z]+\s)"
# A request: the user asks for something done now (it is done once answered).
_REQUEST_START = re.compile(
    r"^\W*(?:(?:ok|okay|alright|great|thanks|cool|right|so|now|next|also|and|then|hey|hi|hiya|hello|yo|morning|good morning|"
    r"anyway|btw|meanwhile|" + LEADS + r")\W+)*"
    + ASIDE_Q +
    r"(?:(?:can|could|would|will) you|how (?:does|do|is|are|did|come|long|many|much)|how'?s\b|what(?:'s| is| are| does| did| do)|"
    r"why (?:is|are|does|did|do)|(?:where|whre|wher) (?:is|are|does|do)|who(?:'s| is| are| was)|what \w{5,9} (?:to|with)\b(?![^.;]*\bis\b)|(?:what|which) [a-z]+ (?:is|are|does|do|did|has|have) [\w.-]+ (?:in|on|at|for|from|with|of)\W*$|were (?:is|are)|wheres|whats|is there|are there|any idea|do we|does it)\b|^\W*(?:please\s+)?(?:(?:ok|okay|so|now|next|also|then|anyway|btw|meanwhile|just)\W+)*"
    + f"(?:{ASIDE}|{ASIDE_DO})" + r"(?:(?:" + LEADS + r")\W+)*(?:look|check|fix|investigate|debug|run|rerun|re-run|try|find|figure|help|show|open|add|write|update|remove|"
    r"delete|refactor|implement|make|create|rename|move|bump|deploy|build|test|review|explain|summari[sz]e|draft|"
    r"plot|compute|calculate|dig|trace|profile|see|tell|give|list|go|let'?s|lets|start|finish|continue|"
    r"compare|clean|split|merge|port|migrate|set up|setup|install|upgrade|revert|roll|rollback|ship|cut|tag|send|"
    r"post|reply|answer|translate|rewrite|reword|edit|change|replace|sort|group|filter|pull|push|fetch|"
    r"peek|"
    r"mira|revisa|arregla|regarde|corrige|v[ée]rifie|schau|pr[üu]fe|behebe|"
    # the same in other languages, Spanish's with the pronoun it takes ("sácame el aging ...", "dime el total", "abre la
    # IBE25-278767 y compárala ...", "postea las comisiones ..."), Portuguese, Italian, French and German
    + ES_ASK + r"|"
    r"apri|invia|controlla|fai|metti|prepara|aggiorna|prenota|cerca|elenca|confronta|calcola|scrivi|rispondi|leggi|lancia|"
    r"carica|scarica|ouvre|envoie|fais|mets|pr[ée]pare|r[ée]serve|cherche|montre|calcule|[ée]cris|r[ée]ponds|lance|relance|"
    # (and the verbs a chat in French asks with, a pronoun after some: "checke les events", "liste-moi les imprimantes",
    # "sors ça dans un CSV", "lis scripts/AD/...")
    r"(?:checke|lis|liste|sors|exporte|ajoute|enl[èe]ve|retire|d[ée]sactive|active|red[ée]marre|supprime|cr[ée]e|g[ée]n[èe]re|"
    r"compare|teste|valide|trouve|donne|dis|explique|r[ée]sume|r[ée]dige|pousse|d[ée]ploie|installe|renomme)"
    r"(?:-(?:moi|le|la|les|lui|nous))?|"
    r"t[ée]l[ée]charge|[öo]ffne|schick|sende|mach|setz|bereite|aktualisiere|buche|zeig|vergleiche|berechne|schreib|"
    r"antworte|lade|starte|lies|"
    # Danish, Norwegian, Swedish ("kør hardening.yml mod sub-vdm-pc02", "læs holding registers på ...", "giv mig power
    # curve for ...", "ret timeout i ...", "vis mig ...", "kjør ...", "kolla ...", "fixa ...")
    r"k[øo]r|kj[øo]r|l[æä]s|vis|visa|giv|ret|tjek|sjekk|kolla|fixa|lav|g[öo]r|hent|h[äa]mta|genstart|"
    r"opdater|oppdater|uppdatera|skriv|tilf[øo]j|slet|slett|sammenlign|j[äa]mf[öo]r|flyt|luk|[åa]bn|[öo]ppna|pr[øo]v|"
    r"starta)(?:\s+(?:mig|meg|mej|os|oss))?\b(?!\s*:|" + JOINED_NAME + ")",
    re.IGNORECASE)
# At the end, or typed on a phone before more ("died?. also ...", "gn209?, then"); or a question tag after a
# statement, with no mark ("ORD-2110834 has been 'processing' for 2 weeks, what's up").
_QUESTION = re.compile(r"\?\s*$|\w\?[.!,;]*\s|[,;:\u2014\u2013-]\s*(?:what'?s up|whats up|any ideas?|thoughts|wdyt|qué onda|qué pasa|qué opinas|"
                       r"what do you think|how come|what gives|any news)\W*$", re.IGNORECASE)
_LABEL = re.compile(r"^\W*[A-Z][A-Z ]{2,30}:")  # "FACT:", "SAFETY RULE:": the user marked it
_RULE_LABEL = re.compile(r"^\W*(?:[A-Z ]*\b)?(?:RULES?|CONSTRAINTS?|POLICY|IMPORTANT|CRITICAL|REQUIRED|"
                         r"REQUIREMENTS?|MUST|NEVER|ALWAYS|SAFETY|SECURITY|WARNING|NOTE)\b[A-Z ]{0,30}:")
_VALUE_HINT = re.compile(r"\d|://|@\w|/\w")


# What a choice made again changes: "we switch <the bank import> to CAMT.053 files".
_SWITCHED = re.compile(r"\b(?:we|we'?ll|we will|let'?s|i'?ll) (?:switch|change) ((?:[\w.-]+ ){0,4}?)(?:to|over to)\b",
                       re.IGNORECASE)


# An update: the user says a standing thing changed ("the launch date moved to 08-21", "from now on, report
# times in Pacific time", "we are calling the project X now"). It supersedes the statement it updates, as a
# correction does, when the two plainly speak of one thing (see .corrections).
_UPDATE = re.compile(
    r"\b(?:updated\b|updates\b|update\b(?!\s+(?:the|a|an|my|our|this|that|it|them|all|every|each|your)\b)|(?<!for )(?<!right )(?<!just )(?<!not )(?<!leave it )now\b|from now on|going forward|moved (?:to|from|up|back|again)|changed? to|switched to|rotated|"
    r"no longer|any ?more|renamed|replaced|retired|these days|as of (?:today|now)|d[ée]sormais|"
    r"rebased (?:onto|on)|has changed|have changed|is changing|we'?re (?:now )?on\b|"
    r"maintenant|ab jetzt|jetzt\b|ahora\b|a partir de ahora|"
    # a thing said to have changed, what it is now after a colon ("the window changed: thursday at 01:30", "cambió la
    # ventana: jueves a la 01:30"), or no longer what it was ("ya no es el martes", "não é mais", "n'est plus")
    # (not a mind changed, "changed my mind on the appliance: ...", a choice made again: a decision's)
    r"\b(?:changed|cambi[óo]|cambiaron|mudou|mudaram|a chang[ée]|ont chang[ée]|ge(?:ä|ae)ndert|[èe] cambiat[oa])\b"
    r"(?! (?:my|our|his|her|their) minds?\b| de (?:idea|opini[óo]n)\b)[^.:;?!]{0,40}:\s*\w|"
    r"\bya no (?:es|son|está|están|va|corre)\b|\bn[ãa]o (?:é|está|fica) mais\b|\bn'est plus\b|\bist nicht mehr\b|\bnon [èe] pi[ùu]\b|"
    # a new one in place of the old ("He sent a new one, the bank closed the old account — use PT50 ...")
    r"\b(?:sent|gave|got|has|opened|issued) (?:me |us |you )?a new one\b|\b(?:closed|replaced|revoked|cancell?ed) the old "
    r"(?:one|account|number|address|card|key|token|password|certificate)\b|"
    # Hindi in Latin letters: it changed ("pool ka naam badla tha", "IP badal gaya", "port change ho gaya")
    r"\bbadl(?:a|i|e) (?:tha|thi|the|hai|hain|gaya|gayi)\b|\bbadal (?:gaya|gayi|gaye|diya|di|diye)\b|\bchange ho (?:gaya|gayi)\b|"
    # a choice made again: "we switch the bank import to CAMT.053 files", "let's change the cut-off to the 5th"
    + _SWITCHED.pattern + ")", re.IGNORECASE)


# What a changed choice says it replaces: "..., not at the weekend", "instead of the EU bucket".
_REJECTS = re.compile(r",\s*not (?:the |at |on |in |a |an |by |from |to )?\w+|\binstead of\b|\brather than\b", re.IGNORECASE)


def switched(sentence: str) -> str:
    """What a choice made again changes, in its words ("the bank import" of "we switch the bank import to
    CAMT.053 files"); "" when it names none."""
    m = _SWITCHED.search(sentence)
    return m.group(1).strip() if m else ""


def is_update(sentence: str) -> bool:
    """Whether the user says a standing thing changed; "not now" (three words or fewer) says none did, nor does
    what they are doing now ("I'm catching up on your messages now.")."""
    return (bool(_UPDATE.search(sentence)) and not _QUESTION.search(sentence) and len(sentence.split()) > 3
            and not _DOING_NOW.match(sentence))


_DOING_NOW = re.compile(r"^\W*(?:(?:ok|okay|so|anyway|btw|also|sorry)\W+)*(?:i'?m|i am)\s+(?:just\s+|still\s+)?"
                        r"(?!(?:using|running|keeping|storing|moving|switching|migrating|going|sending|hosting|deploying|"
                        r"pointing|routing|putting|setting|paying|billing)\b)[a-z]+ing\b", re.IGNORECASE)


# A correction in Japanese, Chinese or Korean: not X but Y, it was the Y one, a mistake, sorry ("10.31.9.44 じゃなくて
# 10.31.9.47 だった、ごめん", "イメージは amr-sim:24.09.52 の方だった", "チケット番号 SAF-42701 だった。SAF-42710 じゃない",
# "不是 8080，是 8443", "8080이 아니라 8443이야"); not "じゃない？", which asks.
_CJK_CORRECTION = re.compile(r"じゃなくて|じゃなく[、,]|ではなくて?|(?:じゃ|では)ない(?:[。.!！]|\s*$)|間違え|間違い|訂正|の方だった|"
                             # (the right one is, the old one: "stg-lantern-52は古い方で、正しくはstg-lantern-59")
                             r"正しくは(?=[^?？\n]{0,40}[A-Za-z0-9])(?![^?？\n]*[?？])|は古い(?:方|ほう)(?:で|[、,])|"
                             r"さっきの(?:は|やつは|値は)|の方[、,]\s*(?:ごめん|すみません)|"  # (the earlier one was for something else:
                             # "..., さっきのは通常走行用"; "mc-3.9.32 の方、ごめん", the other one, sorry)
                             r"だった[、,。]?\s*(?:ごめん|すみません|すいません)|不是[^，,。]{1,40}[，,]\s*(?:而)?是|搞错|弄错|说错|更正|"
                             r"아니라|아니고|잘못 (?:말|알려)|정정")


def is_correction(sentence: str) -> bool:
    """Whether a sentence of the user's prose takes back or replaces what was said. "Sorry, another one",
    "sorry to bother" lead into one more thing asked ("sorry, another one — refund ORD-4140056"): such a
    sentence corrects only when what follows says so ("sorry, one more: I meant 0045")."""
    head = sentence[:300]
    if _CJK_CORRECTION.search(head):
        return True
    m = _CORRECTION.search(head)
    if m is None:
        return False
    lead = _APOLOGY.match(head)
    if lead is None or not lead.group(1) or m.start() >= lead.end():
        return True
    return bool(_CORRECTION.search(head[lead.end():]))  # "sorry, another one": one more thing asked


# An apology and the words that go with it ("sorry, another one —", "pardon, encore une chose :"): what
# follows says whether it corrects or asks.
_APOLOGY = re.compile(r"^\W*(?:(?:oh|ah|and|but|also|ok|okay|hmm|um|so|right|anyway|btw|well|ugh|hm)\W+){0,3}"
                      r"(?:sorry|pardon|d[ée]sol[ée]e?|perd[oó]n|lo siento|entschuldigung|desculpa|scusa)\b"
                      r"(?:[\s,.!:;\u2014\u2013-]+(another (?:one|thing|question)|one more(?: thing)?|quick one|"
                      r"to (?:bother|interrupt|ask|bug|trouble|pester|disturb|nag)(?: you)?|for the (?:delay|noise)|again|but|encore une chose|otra cosa|"
                      # (answering late: "sorry, just saw this", "sorry baru bales, abis call ...": a correction only
                      # when what follows says so, "sorry baru liat, tanggalnya salah, harusnya 12 Maret")
                      r"(?:i )?(?:just|only now) (?:saw|seen|read|got) (?:this|that|it|your \w+)|(?:was )?swamped|slow (?:reply|response)|"
                      r"(?:baru|telat|lama) (?:bales|balas|sempet|sempat|liat|lihat|buka|respon)|"
                      r"noch (?:etwas|was)|mais uma coisa|un'altra cosa)\b)?[\s,.!:;\u2014\u2013-]*", re.IGNORECASE)


FYI_WORDS = 7  # a note this short with no value in it says what was pasted ("this is from the nightly run, fyi")
# A tag that checks the user is heard ("going forward run every generative eval with greedy decoding, ok?"), no question
# (unless the sentence asks from its first word: "do we always deploy on fridays, ok?").
_ASKS_FIRST = re.compile(r"^\W*(?:do|does|did|is|are|was|were|can|could|should|would|will|have|has|what|why|how|when|"
                         r"where|who|which)\b", re.IGNORECASE)
# A question a chat asks without its mark, from its first word ("why is LT-2813 always in the top 10 of the noisy list",
# "is cmp_7688 still spending pls", "what was pause rate in september by plan size ta"); not "do"/"when", which lead
# rules ("do not restart X", "when you deploy, ...").
_UNMARKED_ASK = re.compile(r"^\W*(?:(?:ok|okay|so|and|also|hey|hi|hmm|um|btw|q|quick one|quick q|sorry to (?:bug|bother) you)\W+)*"
                           r"(?!what\s+(?!(?:is|are|was|were|does|do|did|has|have|can|could|should|will|would)\b)[^?]{0,40}?\b"
                           r"(?:is|are|was|were)\b)"  # (not "what matters to me is that tests pass on 3.11": it states)
                           r"(?:why|what|how|where|who|which|whose|is|are|was|were|does|did|has|can|could)\s+(?!not\b)\S+\s+\S|"
                           # (Spanish asks by its accented words alone: "so qué dice el git status", "cuántos prefijos ...")
                           r"^\W*(?:(?:" + LEADS + r"|ok|okay|so|y|e)\W+)*(?:qué|cuánt[oa]s?|cuál(?:es)?|cómo|dónde|cuándo|quién(?:es)?|"
                           # (Indonesian asks without its mark too: "kenapa selalu timeout ya")
                           r"por qué|kenapa|mengapa|gimana|bagaimana|apakah|berapa|kapan|siapa)\s+\S",
                           re.IGNORECASE)
_CONFIRM_TAG = re.compile(r"[,;]?\s*\u00bf?\b(?:ok|okay|okey|alright|all right|yeah|right|sounds? good|got it|capisce|capito|ja|vale|"
                          # (Spanish and Portuguese: "..., ¿va?", "¿sale?", "¿de acuerdo?", "tá?", "né?", "combinado?")
                          r"va|sale|de acuerdo|entendido|t[áa]|n[ée]|certo|combinado|beleza|"
                          r"d'accord|compris|verstanden|t[áa] bom|samjha|samjhe|samjhi|theek hai|thik hai|hai na|na|haina|wakatta|ne)"
                          r"\s*\?+\s*$", re.IGNORECASE)


# A session says its rules again and again; the verdicts of the latest sentences are kept (a bound: its keys
# are whole sentences of what users wrote, and a gateway serves many sessions for weeks).
@functools.lru_cache(maxsize=2_048)
def is_rule(sentence: str) -> bool:
    """Whether a sentence of the user's prose states a standing rule, constraint or preference."""
    sentence = sentence.lstrip("-*\u2022( \t")  # a list item's or an aside's mark is no word of it
    if _RULE_LABEL.match(sentence) or _RULE_LEAD.match(sentence) or _WHEN_I.match(sentence):
        return True
    first = _PRECONDITION.match(sentence)
    if first and not first.group("you"):
        return True
    low = sentence.lower()
    if _UNMARKED_ASK.match(sentence) or _QUESTION.search(
            sentence if _ASKS_FIRST.match(sentence) else _CONFIRM_TAG.sub("", sentence)) and not low.startswith(("please", "pls")):
        return False  # "Do we always ...?" asks: a question is no rule ("..., no sampling ok?" checks it is heard)
    # (a sentence with none of _RULE_NEEDS can match at its start only)
    rule = _RULE.search(sentence) if _may_hold(sentence, low, _RULE_NEEDS) else _RULE.match(sentence)
    if rule and _told(sentence, rule):
        rule = _RULE.search(sentence, rule.end())  # "the order never arrived": what happened, no rule
    if rule and rule.group(0).lower() in _ALWAYS and ":" not in sentence and _CAN_BEFORE.search(sentence, 0, rule.start()) \
            and _STILL_POSSIBLE.match(sentence, rule.end()):
        # "we can always change it later", "aanpassen kan altijd nog": what remains possible, no rule
        rule = _RULE.search(sentence, rule.end())
    if rule and rule.group(0).lower() == "fyi" and len(sentence.split()) <= FYI_WORDS and not any(
            c.isdigit() for c in sentence):
        # "marketing sent their guide, fyi.", "fyi, thread from slack": what a paste is, no value kept
        rule = _RULE.search(sentence, rule.end())
    said = rule.group(0).lower() if rule else ""
    if rule and (said in ("every time", "each time") or said.startswith(_AT_EVERY)):
        # "We tried the retry guidance ... but the error comes back every time", "the job failed after every
        # retry": what keeps happening, no rule
        clause = max(sentence.rfind(c, 0, rule.start()) for c in ";:\u2014")
        if _PAST.search(sentence, clause, rule.start()) or (said.startswith(_AT_EVERY) and (
                _ED.search(sentence, clause, rule.start()) or _DESCRIBES.search(sentence, clause, rule.start())
                or _GERUND.match(sentence))):
            # (nor a thing described, "Adding a smoke test that hits the health endpoint after each deploy")
            rule = _RULE.search(sentence, rule.end())
    if rule and _NOUN_RULE.fullmatch(rule.group(0)) and _asks(sentence):
        # A rule's word as the thing asked for ("draft a reminder to Maasland Agri", "list the claims that break
        # the policy", "reminder for Oosterhout Print pls"): a piece of work, unless a word of a rule follows.
        rule = next((m for m in _RULE.finditer(sentence, rule.end()) if not _NOUN_RULE.fullmatch(m.group(0))), None)
    if rule:
        # "Run a plan for eks in prod, don't apply": a request that says how, not a standing rule.
        return not (_REQUEST_START.match(sentence) and _HOW_ONLY.fullmatch(rule.group(0).lower()))
    return (_may_hold(sentence, low, _WEAK_NEEDS) and bool(_WEAK_RULE.search(sentence))
            and not _REQUEST_START.match(sentence) and not _HEDGE.search(sentence))


# What to do whenever the user does a thing, in any of these languages ("when I write to you in French, answer in
# French", "quand je t'écris en français réponds en français", "cuando te escriba en español, contesta en español",
# "wenn ich auf Deutsch schreibe, antworte auf Deutsch"): the user's own next times, then what to do. Not a time of
# theirs that comes once ("when I get back, deploy it"), nor what they recall or think ("if I remember right, ...").
# (the pronoun a whole word: "if you ask me, the cache is the problem" is an opinion, not "yo")
_WHEN_I = re.compile(
    r"^\W*(?:when(?:ever)?|if|each time|every time|quand|lorsque|chaque fois que|si|cuando|cada vez que|siempre que|"
    r"wenn|sobald|jedes mal,? wenn|quando|ogni volta che|sempre que)\s+(?:(?:i|je|yo|ich|io|eu|te|ti)\b|j'|t')\s*"
    r"(?!(?:get|come|am|'m|go|have|had|finish|remember|recall|think|thought|understand|said|was|were|got|'?ve)\b)"
    r"(?:\w+\s+){0,2}?(?:write|ask|say|send|paste|mention|tag|ping|type|name|give|call|"
    r"[ée]cris|t'[ée]cris|demande|envoie|escrib[ao]|pid[ao]|dig[ao]|mand[eo]|schreibe|frage|sage|schicke|scrivo|"
    r"chiedo|dico|mando|escrevo|pe[çc]o)\b[^.;?!]{3,120}\w", re.IGNORECASE)
_AT_EVERY = ("after ", "before ", "following ", "at the ", "within ")  # the starts of "... every <event>" (see _RULE)
_ED = re.compile(r"\b\w+[^e\W]ed\b", re.IGNORECASE)  # a verb in the past ("the job failed after every retry")
_DESCRIBES = re.compile(r"\b(?:that|which|who)\b", re.IGNORECASE)  # a clause that says what a thing does
_GERUND = re.compile(r"\W*[^\W\d_]{3,}ing\b", re.IGNORECASE)  # work under way ("Adding a smoke test ...")


# "never" and a verb in the past, with no "is/are/be" before it in its clause: a story ("ORD-6035980 never
# arrived", "it never worked"), where "flags are never cached" is a rule.
_NEVER_PAST = re.compile(r"never\s+(?:\w*[^e\W]ed|came|got|went|showed|ran|made|sent|saw|heard|had|did|was|were)\b", re.IGNORECASE)
_PASSIVE = re.compile(r"\b(?:is|are|be|been|gets?|stays?|remains?)\b(?![^,;]*[,;])", re.IGNORECASE)


# The words of a rule that are nouns: a request may ask for one ("draft a reminder", "check the policy").
_NOUN_RULE = re.compile(r"reminder|(?:our|the) (?:convention|policy|rule|standard|style)|change freeze|freeze\b|"
                        r"required|requires?\b|needs? (?:an?|to|the) (?:entry|review|approval|sign-?off|test)|"
                        r"(?:is|are|get) rejected|not to be|is not to", re.IGNORECASE)
# ("\U0001f64f", folded hands, is a "please" too: "ok vol pslist WS-4048 \U0001f64f. then dns queries from ...")
# A plan's label ("plan ye hai: pehle ... phir ... (no rush)"): its steps are no request, however asked.
_PLAN_LABEL = re.compile(r"^\W*(?:the |my |our )?plan\b[^:\n]{0,30}:", re.IGNORECASE)
# (also what only a request's timing is said with: "SHT40 I2C timing 찾아줘 — no rush", "when you get a chance")
# (and in other languages: "porfa", "sin prisa", "cuando puedas", "... y me dices", "sem pressa", "quand tu peux",
# "senza fretta", "wenn du Zeit hast"; "pfv"), or a short ask after what the sentence says
_PLS = re.compile(r"\bpls\b|\bplease\W*$|\b(?:if possible|asap|no rush|no hurry|when you get a (?:chance|sec|minute)|"
                  r"when you have a (?:sec|second|minute|moment)|porfa|plis|porfis|sin prisa|cuando puedas|"
                  r"(?:y |e )?me (?:dices|avisas|cuentas|avisa|diz|fala)|av[ií]same|sem pressa|quando puder|"
                  r"quand tu (?:peux|pourras|auras (?:le temps|une minute))|sans urgence|senza fretta|quando puoi|"
                  r"fammi sapere|wenn du (?:kurz )?zeit hast|keine eile|sag (?:mir )?bescheid|pfv|stp|"
                  r"si (?:t'as|tu as) (?:le temps|une minute)|c'est pour (?:avant|tant[ôo]t|aujourd'hui|demain|ce soir))\b|\U0001f64f|"
                  # (what to do when it is done: "fastqc on the new file, then tell me", "..., and let me know")
                  r"(?:,|\band)\s*(?:then )?(?:tell me|let me know|report back|ping me)\W*$|"
                  # a short ask closing what the sentence says ("nginx tá com muito 502, vê aí", "..., revisa radius")
                  r"[,;\u2014\u2013]\s+(?:y\s+|e\s+)?(?:" + ES_ASK + r"|v[eê]|olha|mira)\b[^,;:\d]{0,20}$", re.IGNORECASE)
# A thanks or a "please" that closes a sentence, in any language, thanks for work to be done ("kk run 45ec0b...
# through the sandbox ty", "check auth.log on gitlab-01 thx"), unless what it closes sets a value up ("use port
# 8080 for the dev api, thanks") or lists steps to take in turn, which hold until they are done ("book the cabin,
# then 3 hikes, ... home by 19:00 sunday tack").
THANKS = (r"(?:\b(?:ty|thx|thanks|thank you|tia|cheers|danke|merci|gracias|grazie|tack|takk|bedankt|dank je|pls|plz|"
          r"valeu|vlw|obrigad[oa]|brigad[oa]|"
          r"please|bitte|por favor|per favore|svp|s'il (?:te|vous) pla[iî]t|sn[äa]lla|alsjeblieft)|"
          # (Japanese, Korean and Chinese: "run power_smoke on hil-rig-02 お願いします", "... 부탁해요")
          # (and their casual asking forms: "... をビルドして", "SHT40 RTC wakeup timer 찾아줘")
          r"お願い(?:します|しま)?|ください|下さい|して(?:ね|くれ)?|부탁(?:해요|합니다|해|드립니다)|주세요|줘|谢谢|謝謝|请|拜托)")
_THANKS = re.compile(THANKS + r"\W*$", re.IGNORECASE)
# Work asked in a few words, a thing and what it is for ("kql DeviceProcessEvents for LT-8995", "proxy logs for
# o.novak last 48h", "pcap summary for 10.15.24.216"): no verb, no clause, asked once. A thing for every one of a
# kind ("contracts for all leases ..."), a clause after "for" ("... for Heron is EUR 37.4 million", "The internal
# label for the effort has changed to XMVWA-663") or work on a thing for another ("Work on PR-41 for the login
# fix") is none.
# The words a short ask opens with before what it asks ("kk", "hm.", "also:").
_LEAD = r"^\W*(?:(?:ok|okay|oki|kk|alright|right|so|now|next|also|and|then|hey|hi|btw|pls|hm+)\W+)*"
_TERSE_ASK = re.compile(_LEAD + r"(?!(?:the|a|an|our|my|this|that|their|its|his|her)\b)"
                        r"(?:(?!(?:on|in|at|to|with|from|by|into)\b)[\w+.-]+ ){1,4}for (?!(?:all|every|each|any)\b)"
                        r"(?![^,;:]*\b(?:is|are|was|were|has|have|had|will|would|should|must|can|could|do|does|did|be|been|"
                        r"we|i|you|they|it|he|she)\b)[^,;:]*$",
                        re.IGNORECASE)
_STEP_AFTER = re.compile(r"[,;]\s+(?:and\s+)?then\b", re.IGNORECASE)


def _asks(sentence: str) -> bool:
    """Whether a sentence asks for a piece of work: it starts as a request does, or says "pls"."""
    return bool(_REQUEST_START.match(sentence) or _ACTION_START.match(sentence) or _PLS.search(sentence)
                or _THANKS.search(sentence) or is_terse_ask(sentence))


_ALWAYS = frozenset(("always", "altijd", "toujours", "siempre", "immer", "sempre", "zawsze", "alltid", "altid", "selalu"))
_CAN_BEFORE = re.compile(r"\b(?:can|could|kan|kun|kunnen|peut|peux|pouvez|pouvons|puede|puedes|podemos|kann|kannst|"
                         r"k(?:ö|oe)nnen|pode|podes|possiamo|pu(?:ò|o)|puoi|mo(?:ż|z)na|mo(?:ż|z)emy|bisa)\s+(?:\w+\s+)?$",
                         re.IGNORECASE)


# (what stays possible: a change, a look back, a word to the user; not "can always only run on main")
_STILL_POSSIBLE = re.compile(r"\s*(?:nog|later|change|adjust|revert|roll|undo|tweak|ping|ask|fix|revisit|redo|rerun|retry|"
                             r"switch|come back|go back|reach|call|text|message|revenir|changer|modifier|corriger|[äa]ndern|"
                             r"cambiar|mudar|zmieni)\b", re.IGNORECASE)


def _told(sentence: str, rule: re.Match[str]) -> bool:
    return bool(_NEVER_PAST.match(sentence, rule.start())) and not _PASSIVE.search(sentence, 0, rule.start())


_HOW_ONLY = re.compile(r"do not|don'?t|by default|at least|at most|no more than")


def is_request(sentence: str) -> bool:
    """Whether a sentence asks: as a request starts, with a question's mark or a question's first word, or with the
    verb that asks in another language."""
    return bool(_REQUEST_START.match(sentence) or _QUESTION.search(sentence) or _UNMARKED_ASK.match(sentence)
                or _FOREIGN_ASK.search(sentence))


@functools.lru_cache(maxsize=4_096)  # (asked of one statement when read, merged and shaped)
def says_holding(sentence: str) -> bool:
    """Whether a sentence says a value holds ("the tenant id is 19ad...", "staging points to db-3") or sets it up ("use
    port 8080 for the dev api"), as against naming what a piece of work is done on ("yara scan WS-8727 triage")."""
    return bool(_COPULA.search(sentence) or _SETS.match(sentence) or _THERE_IS.search(sentence))


_THERE_IS = re.compile(r"\bthere(?:'s|\u2019s| is| are)\b", re.IGNORECASE)  # "there's a docs ticket DOCS-1239 about ..."


def is_terse_ask(sentence: str) -> bool:
    """Whether a sentence asks for a thing in a few words ("proxy logs for o.novak last 48h")."""
    return bool(_TERSE_ASK.match(sentence)) and not _SETS.match(sentence)


# Verbs that set something up rather than ask for a piece of work: "Run the dev API on port 8080", "Send
# the report to ops@acme.dev", "Pin the SDK to 4.2.1" name a value the work depends on from then on.
_SETS = re.compile(r"^\W*(?:(?:good )?(?:morning|afternoon|evening)\W+|(?:hi|hey|hiya|hello|yo|ok|okay|so)\W+)*(?:please\s+)?(?:run|use|set|make|deploy|send|upload|point|pin|tag|cut|push|apply|seed|serve|"
                   r"track|bind|connect|store|target|name|call|host|publish|route|forward|mount|release|ship)\b",
                   re.IGNORECASE)
# (not Go's command: "go test the ingest cmd/ingestd thx" asks)
# (nor "go" that asks: "..., go through the tracked changes", "go ahead and ...")
_COPULA = re.compile(r"\b(?:is|are|=|stays|lives|live|goes|go(?! (?:test|build|vet|run|mod|get|fmt|generate|install|"
                     r"list|clean|tool|work|env|through|ahead|over|and|check|fix|find|look|see)\b)|points? to|means|runs on|is on|are on|"
                     # (Hindi in Latin letters: "path /var/www/kj-shop-next hai yaar"; Japanese "X にして", "X でお願い")
                     r"hai|hain|ended up)\b|"
                     # in other languages, after a word and never in a name ("la ventana con el cliente quedó el martes a
                     # las 22:00, thx", "der Port ist 8443, danke", "vinduet er tirsdag kl. 22:00"; not "es-node-3",
                     # "er, grep ...", "c'est")
                     r"(?<=[^\W\d_] )(?:es|est[áa]|est[áa]n|son|queda|qued[óo]|quedan|quedaron|ist|sind|bleibt|est|sont|reste|"
                     r"\u00e8|sono|resta|rimane|\u00e9|s\u00e3o|fica|ficou|er|blir|\u00e4r|f\u00f6rblir|jest|s\u0105|zostaje|"
                     r"blijft)(?![\w-]|\.\w)|\u306b\u3057\u3066|\u3067\u304a\u9858\u3044")
# A guess or an aside: what it states is not a value the user sets.
_HEDGE = re.compile(r"\b(?:if I (?:remember|recall)|I (?:think|guess|believe|suspect|assume|wonder)|my gut|not sure|"
                    r"might be|may be|maybe|probably|perhaps|random thought|I'?m not going to|I don'?t know|no idea|"
                    # in other languages ("le flicker sur le Deck, je pense que c'est tide_foam_lite.gdshader")
                    r"je (?:pense|crois|suppose)|peut-[êe]tre|creo que|a lo mejor|quiz[áa]s?|tal vez|ich (?:glaube|denke|vermute)|"
                    r"vielleicht|wahrscheinlich|penso che|credo che|forse|acho que|talvez|jeg tror|m[åa]ske|ik denk|misschien|"
                    r"chyba|my[śs]l[ęe])\b",
                    re.IGNORECASE)
# What happened (a past tense and no present one): a story, not a standing value.
_PAST = re.compile(r"\b(?:was|were|had|did|got|went|came|took|made|said|told|saw|found|ran|sent|shared|showed|"
                   r"looked|seemed|happened|spent|talked|noticed|tried|used to|yesterday|last (?:week|month|year|quarter|time)|"
                   r"this morning|ago|(?:still )?(?:hasn'?t|haven'?t|has not|have not|hadn'?t|didn'?t) \w+)\b", re.IGNORECASE)
# What someone noticed ("Something is off on 2000 in June.", "nothing is booked on 1600 yet"): no value set.
_NOTICED = re.compile(r"^\W*(?:(?:hm+|hmm|so|also|and|btw|ok|okay)\W+)*(?:something|nothing|someone|somebody)\b", re.IGNORECASE)
# A request after a statement ("626000 from Zeeland Marine is overdue, draft something I can send"): what is said
# is why the work is asked, no value set.
_ASKED_AFTER = re.compile(r"[,;:\u2014\u2013-]\s*(?:(?:and|so|pls|please)\s+)?(?:(?:can|could|would) you|draft|write|prepare|"
                          r"send|chase|remind|check|look into|look at|find out|follow up)\b[^,;]*$", re.IGNORECASE)


def _asked_after(sentence: str) -> bool:
    """Whether a statement ("626000 from Zeeland Marine is overdue") leads into a request after it ("..., draft
    something I can send"); a list of work ("this week: finish the eval, draft section 6.5") states nothing."""
    asked = _ASKED_AFTER.search(sentence)
    if asked is None:
        return False
    copula = _COPULA.search(sentence, 0, asked.start())
    # ("customer id is cus_5FBWZR28BzTH, can you see what plan they're on" sets a value, then asks; "prod runs Postgres
    # 15.4, could you check the migration" too)
    if copula is None:  # (someone's question passed on, then the ask: "Mette asks why RKS-A06 keeps pausing, can you ...")
        return bool(_RELAYED_ASK.match(sentence))
    return not _VALUE_HINT.search(sentence, copula.end(), asked.start())


_RELAYED_ASK = re.compile(r"^\W*(?:(?:ok|so|hey|btw|also)\W+)*(?-i:[A-Z][\w'-]*)(?: (?-i:[A-Z][\w'-]*))? (?:asks|asked|is asking|"
                          r"wants to know|wonders|would like to know|needs to know)\b", re.IGNORECASE)


_SOURCE_FILE = re.compile(r"\.(?:py|go|rs|ts|tsx|js|jsx|java|kt|rb|c|h|cc|cpp|cs|php|swift|md|ipynb|sql|css|html)$")


# A piece of work asked for, in the imperative (after a greeting or a short lead such as "small one:"): done
# once the agent has done it, whatever value it names. The verbs of _SETS set up a value the work depends on
# from then on, and stay settings.
_ACTION_START = re.compile(
    r"^\W*(?:(?:ok|okay|oki|okie|kk|alright|all right|right|cool|so|now|next|also|and|then|hey|hi|yo|btw|quick|small|"
    r"one more|another|sorry|ugh|hm+|morning|good morning)\W+)*"
    r"(?:[\w ]{1,20}(?::|\s[\u2014\u2013-])\s*){0,2}"
    r"(?:for [\w&'. -]{1,40}? (?=(?:look|pull) up\b))?(?:please\s+)?(?:(?:i |we )?need to )?(?:restart|reboot|bounce|kill|stop|raise|lower|increase|decrease|reduce|double|halve|drain|cordon|"
    r"uncordon|scale|rotate|restore|snapshot|back ?up|page|ack|acknowledge|flip|toggle|pause|resume|enable|disable|"
    r"retry|re-?run|re-?try|re-?deploy|re-?start|reindex|re-?index|replay|backfill|purge|flush|clear|reset|silence|"
    r"mute|unmute|approve|reject|assign|escalate|notify|email|ping|invite|refund|credit|charge|cancel|close|reopen|"
    r"archive|export|import|reload|resize|expand|shrink|downgrade|patch|hotfix|grab|kick off|kick|trigger|schedule|"
    r"book|look up|dump|copy|download|spin up|tear down|shut down|bring up|bring down|roll back|roll out|promote|"
    r"demote|fail over|failover|swap|evict|delete|remove|drop|add|create|open|write|draft|fix|check|run|build|"
    r"reassign|reply|respond|forward|merge|investigate|take a look|remind|put|launch|submit|queue|label|link|"
    r"document|summari[sz]e|update|go through|list|recap|review|prepare|prep|move|sort|flag|mark|compare|redline|"
    r"translate|pull|find|look at|look into|search|extract|convert|rename|upload|log(?= \d)|turn(?= (?:this|that|it|these|them)\b)|fit)\b(?!:|" + JOINED_NAME + ")",
    re.IGNORECASE)
# More verbs of a piece of work, and a tool's own command ("go test ./...", "cargo build"), that are nouns too ("flash
# size is 512k", "read replica is db-2", "train times: ..."): a request only where the sentence states no value with a
# copula ("hm. read the device id off ACM1", "compile samples/okm_bringup and show me the memory report").
_WORK_START = re.compile(
    _LEAD + r"(?:[\w ]{1,20}:\s*)?(?:please\s+)?"
    r"(?:compile|flash|read|print|resume|measure|capture|bisect|benchmark|bench|tail|grep|ssh|curl|scan|probe|decode|parse|load|sync|"
    r"clone|stage|commit|bump|lint|format|analy[sz]e|tune|train|retrain|eval|evaluate|annotate|chart|graph|sketch|"
    r"outline|brainstorm|proofread|polish|shorten|condense|paraphrase|call|text|ask|verify|confirm|debug|"
    r"(?:go|cargo|npm|pnpm|yarn|west|docker|kubectl|terraform|helm|git|mamba|conda|pip|uv|poetry) (?:test|build|vet|run|check|clippy|bench|fmt|"
    r"install|ci|flash|debug|apply|plan|get|describe|logs|exec|bisect|log|diff|status|pull|push|rebase|upgrade|list|env)|"
    r"ctest|pytest)\b"
    r"(?![:-])(?![\w ]{0,25}:\s)",  # (a label is no work: "flash layout: ...")
    re.IGNORECASE)
# Work asked for when something happens ("close PR-41 after the merge", "once the freeze ends, ...") waits for it:
# it holds until then.
# Work asked on one ticket, issue or pull request, named by its number ("reassign #524394 to @amara", "tag
# #494700 as billing-dispute", "refund $1,645.41 on #445676", a message headed by it: "#445869 — customer
# replied, take a look"): done once done, whatever verb asks it.
_ON_ONE = re.compile(r"^\W*(?:(?:ok|okay|so|now|also|and|then|pls|please)\W+)*[a-z]+(?: (?:it|them|this|that|up|back|out))?"
                     r"(?: the)?(?: ticket| issue| PR| pull request| case)? #\d{3,}\b|^\W*(?:please\s+)?(?:refund|credit|charge)\b"
                     r"[^.!?]{0,30}\bon #\d{3,}\b|^\W*#\d{3,}\s*[\u2014\u2013:-]\s", re.IGNORECASE)
# What the user wants handed over now ("I need the budget vs actual for cost centre 100 for May", "we'd like a
# copy of INV-2026-4064"): asked, not a value that holds ("I need you to ..." is a rule; see _RULE).
_WANT = re.compile(r"^\W*(?:(?:ok|okay|so|now|also|and|then|hey|hi)\W+)*(?:i|we)(?: really| just| still)? (?:need|want|'d like|"
                   r"would like)(?: to (?:see|get|have))? (?:the|a|an|some|all|my|our|every|each|\d)\b", re.IGNORECASE)
# (a value given in case a thing happens holds until then: "Stadtwerke Kundennummer 55785449, falls die anrufen")
_TRIGGER = re.compile(r"\b(?:in case|falls|im fall|au cas o[uù]|en caso de|por si|ifall|voor het geval|after|once|when(?! (?:u|you) (?:have|get|got) (?:a|the) (?:sec|second|minute|moment|mo|chance)\b)|"
                      # (a time a piece of work is due by is no trigger: "before lunch: run go test ... danke")
                      r"whenever|before(?! (?:lunch|noon|eod|end of (?:the )?(?:day|week)|the weekend|tomorrow|tonight|"
                      r"(?:the )?stand-?up|the (?:lab )?meeting|the seminar|the demo|the call|the review|my call|"
                      r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b)|"
                      r"as soon as|next time|until|till)\b(?= (?!\d)\w)", re.IGNORECASE)


# Where the user will be meanwhile ("I'll be in the lab meeting till 11", "I'm on the train"): no time the work waits for.
_AWAY = re.compile(r"\bI(?:'ll| will|'m| am) (?:be )?(?:in|at|on|away|out|off|offline|busy|gone)\b[^,;.()]*", re.IGNORECASE)


def is_setting(sentence: str, found: tuple[str, ...]) -> bool:
    """A statement of a value the work depends on ("the tenant id is 19ad...", "we're on Postgres 15.4",
    "Run the dev API on port 8080"); a request about a file ("Look at the flaky test in x_42.py") is none,
    nor a story of what happened or a guess ("There were roughly 1,148 of them", "It had 13 charts",
    "I think it's about 40%"): a setting holds now, and is said as holding."""
    if len(sentence) > 300 or _QUESTION.search(sentence) or _HEDGE.search(sentence) or _UNMARKED_ASK.match(sentence):
        return False
    copula = _COPULA.search(sentence) is not None
    if not copula and _PAST.search(sentence) and not _SETS.match(sentence):
        return False
    if ((_ACTION_START.match(sentence) and not _SETS.match(sentence)) or (_PLS.search(sentence) and not copula
                                                                          and not _PLAN_LABEL.match(sentence))
            or (_THANKS.search(sentence) and not copula and not _SETS.match(sentence) and not _STEP_AFTER.search(sentence))
            or is_terse_ask(sentence) or (_WORK_START.match(sentence) and not copula)
            or _ON_ONE.match(sentence) or _WANT.match(sentence) or _NOTICED.match(sentence)
            or _asked_after(sentence) or _FILE_EDIT.match(sentence) or _FOREIGN_ASK.search(sentence)) and not _TRIGGER.search(
                _AWAY.sub("", sentence)):
        return False  # a piece of work asked for ("restart the export-svc rollout, it's stuck", "tf plan please")
    settings = [v for v in found if (any(c.isdigit() for c in v) or "://" in v or "@" in v or (
                copula and ("/" in v or "_" in v or "." in v))) and not _SOURCE_FILE.search(v)]
    if not settings:
        return False
    if (_SETS.match(sentence) and _ONCE_ACTS.match(sentence)
            and not _COPULA.search(_WHATEVER.sub("", re.split(r"[.;,]\s", sentence, maxsplit=1)[0]))
            and not any(_PARAMETER.match(v) for v in settings)):
        return False  # "run the quick eval suite on 3b-nope-s34": the value is what the work is done on, once
    return not _REQUEST_START.match(sentence) or bool(_SETS.match(sentence))


# A piece of work asked for in other languages, by the verb form that asks it: German's infinitive closing the sentence
# ("hm. app/airq für okm_tempo_nrf52840 bauen", "die Logs von gestern prüfen, danke"), Japanese "...をビルドして",
# "...お願いします", Korean "...빌드해줘", "...로그 확인", Chinese "帮我...", "...一下"; not a value set by it
# ("ポートは 8080 にして", "8080으로 해줘": what it is made, a setting).
_ASK_CLOSE = r"(?=[\s,.!?\u3002\uff01\u3001\uff1f]|$)"
_FOREIGN_ASK = re.compile(
    # (German: not where a word makes it hold on, "Deploys auf prod nur nach 16:00 UTC machen")
    r"^(?!.*\b(?:nur|immer|nie|niemals|keine?[nmrs]?|nicht|stets|ausschlie(?:ß|ss)lich|grunds(?:ä|ae)tzlich|jedes|jede[nmr]?)\b)"
    r".*\b(?:bauen|machen|pr(?:ü|ue)fen|checken|testen|flashen|aufr(?:ä|ae)umen|ansehen|anschauen|starten|deployen|fixen|"
    r"schreiben|lesen|holen|ausf(?:ü|ue)hren|laufen lassen|zusammenfassen|vergleichen|suchen|l(?:ö|oe)schen|hochladen|"
    r"installieren|aktualisieren|reparieren|nachsehen|nachschauen|durchgehen|raussuchen|schicken)"
    r"(?:[\s,.!]+(?:bitte|pls|please|danke|thx|ty|then tell me|and tell me|und sag mir bescheid)\b)*[\s.!]*$|"
    r"(?<!\u306b)(?<!\u4f7f\u3063)(?<!\u3067)(?<!\u3067 )(?:\u3057\u3066(?:\u304f\u3060\u3055\u3044|\u4e0b\u3055\u3044|\u306d|\u304f\u308c)?|"
    r"\u3057\u3068\u3044\u3066|\u304a\u9858\u3044(?:\u3057\u307e\u3059)?|\u983c\u3080)" + _ASK_CLOSE + "|"
    # (any verb so asked, last, "...を見て", "ログ送って", "直してね"; not what a value is made, "8080 にして", nor "使って",
    # nor a choice, "X はやめて Y で")
    r"(?<=[\u3041-\u3093\u30a1-\u30f6\u4e00-\u9fff])(?<!\u306b\u3057)(?<!\u4f7f\u3063)(?<!\u3084\u3081)\u3066"
    r"(?:\u304f\u3060\u3055\u3044|\u4e0b\u3055\u3044|\u306d|\u304f\u308c|\u307b\u3057\u3044)?(?=[\s.!?\u3002\uff01\uff1f]*$)|"
    r"(?<!\ub85c )(?<!\ub85c)(?:\ud574 ?\uc918|\ud574 ?\uc8fc\uc138\uc694|\ud574 ?\uc904\ub798|\ubd80\ud0c1(?:\ud574\uc694|\ud569\ub2c8\ub2e4|\ud574)?|"
    r"\ud655\uc778(?:\ud574)?|\ubd10 ?\uc918|\ubd10 ?\uc8fc\uc138\uc694)" + _ASK_CLOSE + "|"
    r"\u4e00\u4e0b|\u5e2e\u6211|\u5e2e\u5fd9|\u9ebb\u70e6|"
    # a request's first word in Spanish, Portuguese, Italian, Polish or Dutch: the verb that asks ("revisa ...", "escreve um
    # e2e ...", "sprawdź ...", "kun je ... checken"), or can-you; not a verb that sets a value up (usa, pon, manda: see _SETS),
    # nor where a word makes it hold on ("prepara siempre ...")
    r"^(?!.*\b(?:siempre|nunca|jam[aá]s|sempre|mai|zawsze|nigdy|altijd|nooit|voortaan|de ahora en adelante|a partir de agora|"
    r"d'ora in poi|od teraz)\b)\W*(?:(?:ok|okay|oki|hey|hola|oi|ol[aá]|ciao|hoi|q|btw|ah|y|e|en|i|a|vale|bueno|beleza|dai)\W+)*"
    r"(?:(?:kun|kan) je|kunt u|czy (?:mo[zż]esz|mo[zż]ecie)|mo[zż]esz|mo[zż]ecie|puedes|podr[ií]as|podes|pode|poderia|puoi|potresti|"
    r"mira|revisa|busca|prepara|arma|registra|documenta|reintenta|haz|dame|saca|cruza|cuadra|concilia|genera|calcula|corrige|"
    r"escribe|escreve|faz|olha|v\u00ea|puxa|l\u00ea|roda|verifica|procura|marca|controlla|fammi|scrivi|cerca|"
    r"sprawd[zź]|przygotuj|zr[oó]b|um[oó]w|wyeksportuj|przebuduj|policz|znajd[zź]|maak|zoek|bekijk)\b",
    re.IGNORECASE)
# An edit asked on one file, the file first ("small one: terraform/modules/vpc/outputs.tf, set max_retries to 28",
# "in config/app.yaml, bump workers to 8"): done once done; the file holds the value from then on.
_FILE_EDIT = re.compile(r"^\W*(?:[\w ]{1,20}:\s*)?(?:in |on )?(?:[\w.-]+/)*[\w.-]+\.[a-z]{1,5}\s*[,:]\s*(?:please\s+)?"
                        r"(?:set|change|bump|raise|lower|make|update)\b", re.IGNORECASE)
# "whatever step is latest": what a piece of work picks, no value stated as holding.
_WHATEVER = re.compile(r"\b(?:whatever|whichever)\b[^,;.]*", re.IGNORECASE)
# Of the verbs that set something up, those that do it once ("run", "deploy"), where "use", "point", "pin" hold on.
_ONCE_ACTS = re.compile(r"^\W*(?:\w+\W+){0,3}?(?:run|deploy|send|upload|push|apply|seed|tag|cut|publish|release|ship|make)\b",
                        re.IGNORECASE)
# A value a setting sets (a number with its unit, a version, a port, an address, a path or branch, an image's tag, a
# UUID), as against the plain name of what a piece of work is done on ("3b-nope-s34", "staging-3").
# (A month or a day is what it is done for: "run the TB for US01 2025-02".)
_PARAMETER = re.compile(r"^(?!\d{4}-\d{2}(?:-\d{2})?$)(?:[$€£]?:?v?\d[\d.,:_/x-]*[a-z%]{0,3}|.*[/:@].*|.*[0-9a-f]{8}-[0-9a-f]{4}.*)$",
                        re.IGNORECASE)


# What asks only that a change be carried through ("the window changed: thursday 01:30. fix it please", "cambió la
# ventana: jueves a la 01:30. corrígelo porfa"): the change holds, the ask is its.
_APPLY_IT = re.compile(r"[.,;!\u2014\u2013-]\s*(?:(?:and|so|y|e|pls|please|porfa|plis)\s+)?(?:(?:fix|correct|update|change|amend)\s+"
                       r"(?:it|that|this|them)\b|corr[ií]ge(?:lo|la|los|las)?\b|arr[ée]gla(?:lo|la)\b|c[aá]mbia(?:lo|la)\b|"
                       r"actual[ií]za(?:lo|la)\b|corrige-o\b|corrigez\b|korrigier)[^.!?]{0,60}$", re.IGNORECASE)


def kind_of(sentence: str, found: tuple[str, ...]) -> str:
    """"correction", "rule", "setting" or "request" (``found``: the sentence's values)."""
    if is_correction(sentence):
        return "correction"
    if is_rule(sentence) or _LABEL.match(sentence):
        return "rule"
    if (_IF_EVER.search(sentence) or _SCOPE.match(sentence) or _DO_WHEN.match(sentence)) and not _QUESTION.search(
            _CONFIRM_TAG.sub("", sentence)):
        return "rule"  # what to do whenever a kind of thing happens, the case first ("if CI is red twice in a row, post
        # in #build-cops instead of retriggering", "if the diff touches services/billing, add @bruhl as reviewer")
    if is_setting(sentence, found) or (is_update(sentence) and (not _asks(sentence) or _REJECTS.search(sentence)
                                                                or _APPLY_IT.search(sentence))):
        # a value stated, or a standing thing said to have changed ("X now owns the pager"), also when asked with
        # what it replaces ("update on that: rotate svc-gate34 tonight, not at the weekend, since ...")
        return "setting"
    if " if " in sentence and _STANDING_IF.search(sentence) and not _QUESTION.search(sentence):
        return "rule"  # what to do whenever something happens ("check it if tables look stale")
    if _PRECONDITION.match(sentence.lstrip("-*\u2022( \t")):
        return "rule"  # the user's "before you deploy, run the tests" (a document's "Before you change X, tell
        # your admins" tells its readers: see is_rule)
    return "request"


# What to do whenever a kind of thing happens, the case first: a case said of any time it comes ("if CI is red twice in a
# row, post in #build-cops", "if you touch the proto files, regenerate the clients", "if anyone asks about the outage,
# point them to the status page"), then what to do; not one case of now ("if it works, merge it", "if the tests pass,
# deploy").
_IF_EVER = re.compile(r"(?:^\W*|(?<=\w[.;!])\s\W{0,3})(?:[\w ]{1,25}:\s*)?(?:(?:and|also|btw|oh|plus|oh and)\W+)?"
                      # (after an aside of a word or two: "aur haan, if you add ...", "Separately \u2014 if a migration ...")
                      # (not a time of one case: "Tonight, if the backfill fails again, ...", "Otherwise, if ...")
                      r"(?:(?!(?:tonight|today|tomorrow|now|otherwise|then|later|meanwhile|first|after that|else|or else)\W)"
                      r"[^\W\d_]{2,12}(?: [^\W\d_]{2,12})?\s*(?:,|\s[\u2014\u2013]|:)\s*)?(?:if|whenever|every time|each time) "
                      # (a case said of any one of a kind: "if a job dies on memory, double it once and then ask me")
                      r"(?=(?:a|an) [\w-]+ (?!of\b)|[^,;:.?!\u2014\u2013]{0,80}\b(?:ever|again|twice|three times|in a row|anyone|anybody|someone|any|every|"
                      r"you (?:touch|change|edit|add|remove|bump|see|hit|get|find)|we (?:touch|change|edit|add|bump|see|hit|get)|"
                      r"touch(?:es)?|more than|longer than|less than|fewer than|(?:goes|go|is|gets) (?:over|above|below|under))\b)"
                      r"[^,;:.?!\u2014\u2013]{3,90}[,\u2014\u2013]\s*(?:please\s+|pls\s+|just\s+)?(?:post|ping|page|tell|ask|notify|"
                      r"tag|request|cc|"
                      r"stop|don'?t|do not|never|always|run|regenerate|rerun|re-run|file|open|escalate|revert|roll back|use|add|"
                      r"update|check|wait|point|send|message|call|mention|flag|skip|leave|keep|put|write|loop in|kill|cancel|abort|"
                      r"quarantine|retry|restart|double|mark|label|move|set|take|make|turn|switch|disable|enable|back up|"
                      r"backup|do)\b",
                      re.IGNORECASE)
# What is done with a scope: an order, not a report ("..., run it by me first", "..., tu le roules avec -WhatIf avant";
# not "..., we reverted yesterday", "..., on l'a déjà testé")
_SCOPE_ORDER = (r"(?:(?:please|pls|always|first)\s+)?(?:run|ask|check|ping|tell|show|send|loop|cc|tag|get|goes|go|needs|must|"
                r"should|has to|have to|never|don'?t|do not|tu (?:le |la |les |me |nous )?(?!l'a\b|as\b)\w+|vous|fais|demande|"
                r"montre|p[aá]s[ae]|m[aá]nd[ae]|preg[uú]nta|pergunta|me (?:pergunta|avisa|mostra)|avisa|mostra|zeig|frag|"
                r"schick|daj|pytaj|zapytaj|wy[śs]lij|poka[żz]|stuur|vraag|laat|chiedi|"
                # (a thing to do first: "faz backup antes", "haz un backup", "fai prima un backup", "mach vorher ...")
                r"faz|fa[çc]a|haz|haga|fai|fate|mach|maak|zr[óo]b|do (?:it|that|them|this))\b")
# What to do with everything of a scope, the scope first ("anything that touches the billing schema, run it by me
# first", "Tout ce qui touche au groupe GG-Pilote, tu le roules avec -WhatIf avant", "todo lo que toque producción, ...");
# not what is left or known ("tout ce qui reste, c'est ...").
# (after a lead or two and a short label: "Ah, e pra ficar claro: se for mexer em ...")
_SCOPE_LEAD = r"^\W*(?:(?:and|also|btw|oh|ah|plus|et|y|e|und|en|i|aur|haan|yes|ja|oui|s[ií])\W+){0,2}(?:[^\W\d_][\w ]{0,24}:\s*)?"
_SCOPE = re.compile(_SCOPE_LEAD + r"(?:anything|everything|all)(?: (?:that|which))? "
                    r"(?:touches|concerns|involves|changes|hits|goes (?:to|into|near))\b[^.;!?]{3,80},\s*" + _SCOPE_ORDER + "|"
                    + _SCOPE_LEAD + r"(?:tout ce qui (?:touche|concerne|modifie|passe par)|todo lo que (?:toque|afecte|modifique|cambie)|"
                    r"tudo (?:o )?que (?:mexer|tocar|afetar|mudar)|tutto (?:ci[òo]|quello) che (?:tocca|riguarda|modifica)|"
                    r"alles,? was (?:[\w-]+ ){0,4}(?:betrifft|ber(?:ü|ue)hrt|[äa]ndert)|alles wat (?:[\w-]+ ){0,4}(?:raakt|wijzigt)|"
                    r"wszystko,? co (?:dotyczy|dotyka|zmienia)|"
                    # if you are to touch a thing of a kind, in the user's other languages ("se for mexer em migration
                    # da tabela de pedidos, faz backup antes e me avisa", "si vas a tocar la tabla X, ...")
                    # (not one time of now, "se for mexer no banco agora, ...", nor what was done, "se você mexeu ...")
                    r"(?![^,.;!?]{0,90}\b(?:agora|hoje|ahora|hoy|ora|adesso|oggi|jetzt|heute|gerade|nu|vandaag|teraz|"
                    r"dzisiaj|dzi[śs]|now|today|tonight|maintenant|aujourd'hui)\b)(?:"
                    # (what a thing of the work comes to need: "if anything on Gokhale needs a restart, do it outside 6-9pm")
                    # (not in this piece of work: "if anything in this PR needs changes, do it and push")
                    r"(?:if|whenever) (?:anything|something|any [\w-]+)\b(?![^,.;!?]{0,60}\b(?:this|these|after the|during the)\b)"
                    r"[^,.;!?]{0,60}?\b(?:needs?|requires?|has to be|must be)|"
                    r"se (?:voc[êe] |vc |tu )?(?:for |vai |precisar |tiver que )?(?:mexer|mexe|tocar|toca|mudar|muda|alterar|"
                    r"altera) (?:em|n[oa]s?)|"
                    r"si (?:vas a |tienes que )?(?:tocas|tocar|toca|cambias|cambiar|modificas|modificar) (?:algo |alg[uú]n |"
                    r"alguna )?(?:en|el|la|los|las)|"
                    r"se (?:devi |vuoi )?(?:tocchi|toccare|modifichi|modificare|cambi|cambiare) (?:qualcosa|il|la|lo|i|le|gli|"
                    r"un|una)|"
                    r"si (?:tu |vous )(?:touch|modifi|chang)\w* (?:à|au|aux|le|la|les|un|une|quoi que ce soit)|"
                    r"wenn (?:du|ihr) (?:[\w-]+ ){0,4}(?:anfasst|[äa]e?nderst|ber(?:ü|ue)hrst)|"
                    r"als (?:je|jij|u) (?:[\w-]+ ){0,4}(?:aanraakt|wijzigt|aanpast|verandert)|"
                    r"je[śs]li (?:[\w-]+ ){0,3}(?:ruszasz|zmieniasz|dotykasz|ruszysz|zmienisz)))\b[^.;!?]{0,80},\s*"
                    + _SCOPE_ORDER, re.IGNORECASE)
# An order, then the kind of work it goes with ("please write the failing test first when you fix a bug in X",
# "run the linter whenever you touch a Go file"): not one time of now ("tell me when you finish the migration").
_DO_WHEN = re.compile(r"^\W*(?:(?:ok|okay|so|and|also|btw|oh)\W+){0,2}(?:(?:(?:please|pls|kindly|always)\W+){1,2}"
                      r"(?:[a-z]+\b)|(?:write|add|run|use|update|bump|keep|put|include|document|squash|rebase|regenerate|"
                      r"rerun|re-run|lint|format|sign|stop|pause|drain)\b)"
                      r"[^.;!?]{3,80}?\b(?:when(?:ever)?|every time|each time|any ?time) you (?:\w+ )?(?:fix|add|touch|change|"
                      r"edit|write|create|bump|merge|release|rename|remove|delete|upgrade|install|migrate|modify) "
                      r"(?:a|an|any|new|some)\b(?![^.;!?]*\b(?:for (?:this|that|it)|here|now|today|tonight)\b)",
                      re.IGNORECASE)
# An instruction for whenever a thing happens ("..., check it if tables look stale", "restart the worker if the
# queue backs up"): "if" and a thing of the work that does something, not the asker's leave ("if you can", "if
# possible", "if that's ok"); "check if the build is green" asks whether.
_STANDING_IF = re.compile(r"^\W*(?:\w+\W+){0,12}?(?:check|restart|rerun|re-run|page|ping|tell|alert|rollback|roll back|"
                          r"pause|stop|retry|escalate|flag|use|switch) (?!if\b)[^.;?!]{0,60}?\bif (?:the |a |an |any |our |its |their )?"
                          r"(?!you\b|i\b|we\b|it'?s\b|that\b|this\b|possible\b|needed\b|necessary\b|so\b|not\b)"
                          r"[a-z][\w-]* (?:\w+ )?(?:looks?|is|are|gets?|goes|go|fails?|backs? up|starts?|stops?|breaks?|"
                          r"turns?|shows?|hits?|drops?|exceeds?|spikes?|runs?|flaps?|lags?)\b", re.IGNORECASE)

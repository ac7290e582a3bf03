"""Long personal-assistant sessions (an OpenClaw-style agent on chat channels) with planted facts.

    from gen_assistant import make_session
    session = make_session(seed=1, messages=400)     # about 150k tokens at 4 chars a token
    session = make_session(seed=1, messages=3000)    # about 1.2M tokens

One busy person and their assistant agent, reached over WhatsApp, Telegram and Slack (messages are
relayed in with a channel header, sometimes as forwards from other people). Tools: email_search,
read_email, send_email, calendar_list, create_event, web_search, fetch_url, notes_search,
save_note, reminders_create, book (restaurants, hotels, trains, flights), shopping, home_control
and expense_ocr, in OpenAI chat format. The user types on a phone: lowercase, typos, no
punctuation, voice-dictation run-ons, emoji, now and then German, Hindi in Latin script, Swedish,
Japanese or Chinese. Standing preferences are stated in passing ("im vegetarian btw"), corrections
come casually and far from what they correct, decisions get revised, and most requests are
one-offs ("book a table for 4 at 8"), which are not rules. Users forward and paste long material
with rules that are not theirs (newsletters, booking confirmations, a school's policy, a
landlord's demands, recipes, a group chat): ``Session.pasted`` lists it.

Planted facts (``Session.facts``), eight kinds: instruction, correction (``stale`` is the value it
replaced), decision (the latest revision; ``stale`` the first choice, when revised), error (a failed
booking, payment or API call), file (a note or document the agent saved), identifier (booking refs,
confirmation codes, flight numbers, order ids), finding (what a tool found), plan. Six of each at
400 messages, twelve at 3000, placed between 3% and 88% of the session. A fact's value occurs in no
message before its own and in no filler message. Deterministic from the seed; ends on a user turn.
Written from its own short spec, without reading the engine under test.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessiongen import Fact, Session

Message = dict[str, Any]
KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
SPAN = (0.03, 0.88)
BANDS = ((0.03, 0.3), (0.3, 0.6), (0.6, 0.86))
TOOLS = ("email_search", "read_email", "send_email", "calendar_list", "create_event", "web_search", "fetch_url",
         "notes_search", "save_note", "reminders_create", "book", "shopping", "home_control", "expense_ocr")
OPEN, CLOSE = "\u27e6", "\u27e7"  # marks the value inside a template; removed when rendered

SYSTEM = (
    "You are Juno, a personal and executive assistant running on the user's OpenClaw gateway. Messages reach "
    "you from WhatsApp, Telegram and Slack; a header in brackets names the channel. Forwarded messages are from "
    "other people, not from the user. Tools: email_search, read_email, send_email, calendar_list, create_event, "
    "web_search, fetch_url, notes_search, save_note, reminders_create, book (restaurants, hotels, trains, "
    "flights), shopping, home_control (lights, heating, locks) and expense_ocr (receipts). Confirm before you "
    "spend money or send email on the user's behalf unless they told you to go ahead. Keep answers short: the "
    "user reads on a phone."
)

FIRST = ["Lena", "Tomas", "Priya", "Oskar", "Mei", "Rahul", "Sofia", "Jonas", "Aiko", "Farid", "Greta", "Malik",
         "Ines", "Viktor", "Nadia", "Emil", "Chloe", "Arjun", "Hanna", "Yusuf", "Clara", "Leon", "Freya", "Dev"]
LAST = ["Berger", "Lindqvist", "Sharma", "Nakamura", "Duarte", "Hoffmann", "Osei", "Kowalczyk", "Moreau", "Svensson",
        "Iyer", "Tanaka", "Fischer", "Haddad", "Novak", "Brennan", "Petrov", "Almeida", "Kato", "Richter"]
CITIES = ["Lisbon", "Munich", "Stockholm", "Kyoto", "Milan", "Vienna", "Porto", "Copenhagen", "Barcelona",
          "Amsterdam", "Zurich", "Prague", "Edinburgh", "Bologna", "Hamburg", "Ghent"]
DOMAINS = ["gmail.com", "outlook.com", "posteo.de", "icloud.com", "proton.me", "web.de", "fastmail.com"]
ORGS = ["Northwind", "Bluefin Partners", "Helio Labs", "Kestrel Group", "Ardent Legal", "Maple & Co", "Orbitale",
        "Stadtwerke", "Lumen Health", "Greenway Schools", "Fjord Capital", "Tessera Insurance"]
EMOJI = ["🙏", "😅", "👍", "☕", "🤦", "😩", "🙃", "✨", "🥲", "😂", "❤️", "👀", "🫠", "💪", "🚗", "🍝"]
CHANNELS = ["[WhatsApp]", "[Telegram]", "[Slack DM]", "[WhatsApp voice note, transcribed]", "[Telegram]", "[WhatsApp]"]
ASIDES = ["sorry on the train", "kids screaming lol", "typing w one hand", "in a meeting", "no rush", "ugh",
          "long day", "on the tram", "at the gym", "in the queue at aldi", "battery 4%", "walking the dog"]
FOREIGN = ["danke", "alles klar", "passt schon", "tack", "okej", "toppen", "theek hai", "accha", "haan yaar",
           "chalo", "arigato", "よろしく", "了解", "谢谢", "mahalo", "bitte", "genau", "lagom", "bas", "ok ok"]


# --- small helpers -----------------------------------------------------------------------------


def hexs(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def caps(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(n))


def person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def addr(rng: random.Random, name: str | None = None) -> str:
    name = name or person(rng)
    return f"{name.lower().replace(' ', '.')}@{rng.choice(DOMAINS)}"


def day(rng: random.Random) -> str:
    return f"{rng.choice(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'])} {rng.randint(1, 28)} {rng.choice(['Nov', 'Dec', 'Jan'])}"


def clock(rng: random.Random) -> str:
    return f"{rng.randint(7, 21):02d}:{rng.choice(['00', '15', '30', '45'])}"


SHORT = {"please": "pls", "because": "bc", "tomorrow": "tmrw", "though": "tho", "thanks": "thx", "you": "u",
         "your": "ur", "something": "smth", "before": "b4", "people": "ppl", "about": "abt", "really": "rly"}


def typo(rng: random.Random, text: str, rate: float = 0.04) -> str:
    """Phone typing: shorthand, swapped and dropped letters; never inside the value marks."""
    out, inside = [], False
    for token in re.split(f"(\\s+|{OPEN}|{CLOSE})", text):
        if token == OPEN:
            inside = True
        elif token == CLOSE:
            inside = False
        if inside or not token.isalpha():
            out.append(token)
            continue
        low = token.lower()
        if low in SHORT and rng.random() < 0.5:
            out.append(SHORT[low])
            continue
        roll = rng.random()
        if len(token) > 4 and roll < rate:
            i = rng.randrange(len(token) - 1)
            token = token[:i] + token[i + 1] + token[i] + token[i + 2:]
        elif len(token) > 4 and roll < rate * 1.7:
            i = rng.randrange(1, len(token))
            token = token[:i] + token[i + 1:]
        out.append(token)
    return "".join(out)


def render(text: str) -> tuple[str, str | None]:
    m = re.search(f"{OPEN}(.*?){CLOSE}", text, re.S)
    return text.replace(OPEN, "").replace(CLOSE, ""), (m.group(1) if m else None)


def phone(rng: random.Random, body: str, header: bool = True) -> str:
    """A user message as it arrives: maybe a channel header, lowercase, typos, emoji, an aside."""
    style = rng.random()
    if style < 0.55:
        body = body[0].lower() + body[1:] if body else body
    if style < 0.25:
        body = body.replace(". ", " ").replace(", ", " ").rstrip(".")
    body = typo(rng, body)
    r = rng.random()
    if r < 0.25:
        body += " " + rng.choice(EMOJI)
    elif r < 0.35:
        body += f" ({rng.choice(ASIDES)})"
    elif r < 0.45:
        body += " " + rng.choice(FOREIGN)
    return with_header(rng, body) if header else body


def with_header(rng: random.Random, body: str) -> str:
    if rng.random() < 0.55:
        head = rng.choice(CHANNELS)
        if rng.random() < 0.5:
            head = head[:-1] + f" {clock(rng)}]"
        body = f"{head} {body}"
    return body


def _text(message: Message) -> str:
    parts = [str(message.get("content") or "")]
    for call in message.get("tool_calls") or []:
        parts.append(call["function"]["arguments"])
    return "\n".join(parts)


class Builder:
    def __init__(self, rng: random.Random, reserved: tuple[str, ...]) -> None:
        self.rng = rng
        self.messages: list[Message] = [{"role": "system", "content": SYSTEM}]
        self.pasted: list[tuple[int, str]] = []
        self.reserved = reserved
        self.calls = 0

    def user(self, body: str, paste: str | None = None) -> Message:
        message: Message = {"role": "user", "content": body}
        if paste is not None:
            message["_paste"] = paste
        return message

    def say(self, text: str) -> Message:
        return {"role": "assistant", "content": text}

    def tool(self, name: str, args: dict[str, Any], output: str, text: str | None = None) -> list[Message]:
        self.calls += 1
        cid = f"call_{self.calls:05d}_{hexs(self.rng, 6)}"
        return [{"role": "assistant", "content": text, "tool_calls": [
                    {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}]},
                {"role": "tool", "tool_call_id": cid, "name": name, "content": output}]

    def found(self, episode: list[Message]) -> set[str]:
        texts = [_text(m) for m in episode]
        return {v for v in self.reserved for t in texts if v in t}


# --- long tool outputs and pasted material (noise) ----------------------------------------------

SUBJECTS = ["Your order has shipped", "Re: Q{q} planning offsite", "Invoice {n} from {org}", "Fwd: parents evening",
            "Reminder: your appointment", "Weekly digest", "Re: contract draft v{q}", "Your receipt from {org}",
            "Action required: verify your account", "Re: dinner saturday?", "[{org}] New sign-in from Chrome on Mac",
            "Board pack for {day}", "Your statement is ready", "Re: Re: flat viewing", "Team lunch poll",
            "Price drop on items in your basket", "Re: intro {name} <> you", "Out of office: {name}",
            "Payment received - thank you", "Updated: Sync with {name} @ {day}", "Newsletter: what's new in {city}"]
SNIPPETS = ["just circling back on this, let me know when you have a sec", "please find attached the revised version",
            "we're excited to let you know that", "your package is on its way and should arrive", "as discussed on the call",
            "can we move this to next week? something came up", "thanks again for a lovely evening",
            "we noticed a new sign-in to your account", "this is an automated message, please do not reply",
            "the kids had a great time at", "following up on my previous email", "quick question about the invoice",
            "attached are the minutes from", "happy to jump on a call if easier", "the viewing is confirmed for"]
SENTENCES = [
    "Our opening hours change for the holiday season, so please check before you travel.",
    "Guests must present a valid photo ID at check-in.", "All prices include VAT and service.",
    "Cancellations must be made at least 48 hours before arrival to avoid a fee.",
    "Please do not reply to this email; this mailbox is not monitored.",
    "Pets are welcome in selected rooms for a supplement of 25 EUR per night.",
    "Children under 12 must be accompanied by an adult at all times.",
    "The museum is closed on Mondays except for public holidays.",
    "Tickets are non-refundable but can be transferred up to 24 hours before the event.",
    "We recommend booking at least two weeks in advance during the summer.",
    "Parking is limited; guests are asked to use public transport where possible.",
    "Breakfast is served from 7:00 to 10:30 in the garden room.",
    "Check-out is at 11:00; late check-out is subject to availability.",
    "You can manage your preferences or unsubscribe at any time.",
    "Smoking is not permitted anywhere on the premises.", "Always keep your booking reference to hand.",
    "The trail is steep in places and sturdy shoes are essential.",
    "Residents should not leave bins out after Tuesday evening.",
    "Please arrive 15 minutes before your appointment to complete the forms.",
    "Orders placed after 2pm ship on the next working day.",
    "Dinner service starts at 18:00 and the kitchen closes at 22:00.",
    "Free cancellation is available on most rooms until the day before arrival.",
    "Our team will never ask you for your password by email or phone.",
    "Local buses run every 20 minutes from the station square.",
    "Visitors must sign in at reception and wear a badge.",
    "Hope you all had a restful weekend.", "Thanks so much for getting back to me so quickly.",
    "I've attached the updated figures; the totals on page two changed slightly.",
    "Let me know if Thursday afternoon works better for you.", "The kids loved the museum, especially the dinosaur hall.",
    "We're still waiting on the quote from the electrician.", "Sorry for the delay, it's been a hectic week here.",
    "The meeting notes are in the shared folder.", "Our new address will be on the next invoice.",
    "Nothing urgent, just keeping you in the loop.", "I spoke to the bank and they said it takes three to five working days.",
    "The delivery window was moved because of the public holiday.", "Could you confirm the number of guests by Friday?",
    "Happy to send the full report if that helps.", "We had a small leak under the sink but it's fixed now.",
    "Registration for the spring term opens next month.", "The car is ready for collection any time after four.",
    "I'm out of the office until Monday with limited access to email.", "Great seeing you at the party last week!",
    "Attached is the signed copy for your records.", "Your feedback helps us improve our service.",
    "The conference programme has been updated with two new speakers.", "We noticed you left items in your basket.",
    "The flat viewing went well and the agent is preparing the paperwork.", "The tram line will be closed for repairs over the weekend.",
]
PAGE_JUNK = ["Skip to main content", "Menu", "Search", "Log in | Sign up", "Accept all cookies | Manage preferences",
             "We use cookies to improve your experience. By continuing you agree to our use of cookies.",
             "Share on Facebook | Share on X | Copy link", "Related articles", "© 2026 All rights reserved",
             "Privacy | Terms | Imprint | Contact", "Subscribe to our newsletter", "Advertisement", "Back to top"]


def fill(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(SENTENCES) for _ in range(n))


def fmt(rng: random.Random, template: str) -> str:
    return template.format(q=rng.randint(1, 4), n=rng.randint(10000, 99999), org=rng.choice(ORGS), day=day(rng),
                           name=person(rng), city=rng.choice(CITIES))


def inbox(rng: random.Random, k: int) -> str:
    rows = []
    for i in range(k):
        name = person(rng)
        rows.append(f"{i + 1:>2}. msg_{hexs(rng, 12)} | {day(rng)} {clock(rng)} | From: {name} <{addr(rng, name)}>\n"
                    f"    Subject: {fmt(rng, rng.choice(SUBJECTS))}\n    {rng.choice(SNIPPETS)}... "
                    f"[{rng.choice(['unread', 'read', 'read', 'starred'])}{', attachment' if rng.random() < 0.3 else ''}]")
    return f"{k} messages matched\n\n" + "\n".join(rows)


def email_thread(rng: random.Random, subject: str, body: str | None = None, replies: int | None = None) -> str:
    out = []
    for r in range(replies if replies is not None else rng.randint(3, 7)):
        name = person(rng)
        paras = [fill(rng, rng.randint(3, 7)) for _ in range(rng.randint(2, 5))]
        if r == 0 and body:
            paras.insert(0, body)
        sig = f"--\n{name}\n{rng.choice(['Office Manager', 'Account Executive', 'Head of Operations', 'Partner', 'Customer Care'])}, {rng.choice(ORGS)}\n+{rng.randint(30, 49)} {rng.randint(100, 999)} {rng.randint(1000000, 9999999)}"
        out.append(f"From: {name} <{addr(rng, name)}>\nDate: {day(rng)} 2026 {clock(rng)}\nSubject: {subject}\n\n"
                   + "\n\n".join(paras) + "\n\n" + sig)
    disclaimer = ("This email and any attachments are confidential and intended solely for the addressee. If you "
                  "have received it in error, please notify the sender and delete it. Do not copy or forward it.")
    return "\n\n-----Original message-----\n".join(out) + "\n\n" + disclaimer


def calendar_dump(rng: random.Random, k: int) -> str:
    what = ["Standup", "1:1 with {name}", "Dentist check-up", "School run", "Board prep", "Lunch with {name}",
            "Yoga", "Flight to {city}", "Call {org}", "Parents evening", "Budget review", "Haircut", "Pilates",
            "Interview: {name}", "Coffee w/ {name}", "Focus time", "Piano lesson (kids)", "Vet", "Quarterly sync"]
    rows = []
    for _ in range(k):
        start = clock(rng)
        rows.append(f"- {day(rng)} {start}-{clock(rng)}  {fmt(rng, rng.choice(what))}"
                    f"  | evt_{hexs(rng, 10)} | {rng.choice(['busy', 'busy', 'tentative', 'free'])}"
                    f"{' | ' + rng.choice(['Zoom', 'Teams', 'Office 3.12', 'Home', 'Café Aroma', 'Praxis am Markt']) if rng.random() < 0.6 else ''}"
                    f"{' | ' + str(rng.randint(2, 9)) + ' guests' if rng.random() < 0.3 else ''}")
    return f"calendar primary, {k} events\n" + "\n".join(rows)


def search_results(rng: random.Random, query: str, k: int) -> str:
    rows = [f'web_search("{query}"): about {rng.randint(1, 90)},{rng.randint(100, 999)},000 results']
    for i in range(k):
        site = rng.choice(["tripadvisor.com", "reddit.com", "timeout.com", "booking.com", "wikipedia.org",
                           "lonelyplanet.com", "theguardian.com", "yelp.com", "faz.net", "nytimes.com", "stackexchange.com"])
        rows.append(f"\n{i + 1}. {query.title()} - {rng.choice(['Top 10', 'Guide', 'Review', 'Forum', 'FAQ', 'Best of 2026'])} | {site}\n"
                    f"   https://www.{site}/{hexs(rng, 6)}/{query.replace(' ', '-')}\n   {fill(rng, 2)}")
    return "\n".join(rows)


def web_page(rng: random.Random, title: str, paras: int) -> str:
    parts = rng.sample(PAGE_JUNK, 5) + [f"# {title}", f"Updated {day(rng)} 2026 · {rng.randint(3, 12)} min read"]
    for _ in range(paras):
        parts.append(fill(rng, rng.randint(3, 7)))
        if rng.random() < 0.3:
            parts.append(rng.choice(PAGE_JUNK))
    return "\n\n".join(parts + rng.sample(PAGE_JUNK, 4))


def flights(rng: random.Random, src: str, dst: str, k: int) -> str:
    rows = [f"{src} -> {dst}, {day(rng)}, 1 adult, economy", "carrier  flight   dep    arr    stops  duration  price"]
    for _ in range(k):
        rows.append(f"{rng.choice(['LH', 'SK', 'TP', 'LX', 'OS', 'KL', 'AF', 'IB', 'FR', 'U2'])}  "
                    f"{rng.choice(['LH', 'SK', 'TP', 'LX'])}{rng.randint(100, 999)}  {clock(rng)}  {clock(rng)}  "
                    f"{rng.choice([0, 0, 1, 1, 2])}      {rng.randint(1, 14)}h{rng.randint(0, 59):02d}    EUR {rng.randint(59, 890)}")
    return "\n".join(rows)


def receipt(rng: random.Random) -> str:
    items = ["Oat milk 1L", "Sourdough", "Espresso", "Taxi fare", "Parking 2h", "Printer ink", "Lunch menu",
             "Bananas", "Pad thai", "Tram ticket", "Notebook A5", "Hotel minibar", "Flat white", "Croissant"]
    lines = [f"{rng.choice(ORGS).upper()} · {rng.choice(CITIES)}", f"{day(rng)} 2026 {clock(rng)}  Kasse {rng.randint(1, 9)}"]
    total = 0.0
    for _ in range(rng.randint(3, 14)):
        price = rng.uniform(0.8, 42)
        total += price
        lines.append(f"{rng.choice(items):<24}{price:>8.2f}")
    lines += [f"{'TOTAL EUR':<24}{total:>8.2f}", f"MwSt 19%: {total * 0.19 / 1.19:.2f}", "Vielen Dank für Ihren Einkauf!"]
    return f"OCR (confidence 0.9{rng.randint(1, 8)}):\n" + "\n".join(lines)


def home_status(rng: random.Random) -> str:
    devices = {f"{room}.{kind}": rng.choice(["on", "off", f"{rng.randint(17, 23)}.{rng.randint(0, 9)}C", "locked", "unlocked", f"{rng.randint(0, 100)}%"])
               for room in ("kitchen", "living", "kids", "bedroom", "hall", "garage") for kind in ("light", "thermostat", "blind", "lock")
               if rng.random() < 0.7}
    return json.dumps({"hub": "home-assistant", "devices": devices, "updated": f"{clock(rng)}"}, indent=1)


# Pasted material with rules inside that are not the user's own.
def paste_school(rng: random.Random) -> str:
    rules = rng.sample([
        "Parents must inform the school office before 8:45 on each day of absence.",
        "Pupils must not bring mobile phones to class; phones are kept in the office.",
        "Holidays in term time will not be authorised except in exceptional circumstances.",
        "Always label uniform and PE kit with your child's full name.",
        "Children should arrive no later than 8:40; the gate closes at 8:50.",
        "Medicines must be handed to the office in the original packaging with a signed form.",
        "Nut products are not permitted in packed lunches.",
        "Never park on the zig-zag lines outside the main entrance.",
        "Requests for leave must be made in writing at least two weeks in advance.",
        "Pupils who are unwell should stay at home for 48 hours after the last episode of sickness.",
        "Please do not contact teachers by personal email; use the parent portal.",
        "Forms returned after the deadline cannot be processed."], 9)
    sections = ["1. Purpose", "2. Roles and responsibilities", "3. Reporting an absence", "4. Leave in term time",
                "5. Punctuality", "6. Health and medicines", "7. Communication", "8. Review"]
    parts = ["GREENWAY PRIMARY SCHOOL\nPolicy on Attendance and Absence\nApproved by the Governing Board, reviewed annually\n"]
    for k, title in enumerate(sections):
        parts.append(f"{title}\n{fill(rng, rng.randint(3, 6))}")
        parts += [f"{k + 1}.{j + 1} {rules.pop()}" for j in range(rng.randint(0, 2)) if rules]
    return "\n\n".join(parts + [f"Page {rng.randint(2, 9)} of 9"])


def paste_landlord(rng: random.Random) -> str:
    name = person(rng)
    return (f"Forwarded message from {name} (landlord):\n\nDear tenants,\n\n"
            + rng.choice(["From next month the rent is due on the 1st, no exceptions.",
                          "Bikes must not be stored in the hallway anymore, the fire inspector complained."])
            + " " + rng.choice(["You must let the heating engineer in on Thursday between 8 and 12.",
                                 "Do not drill into the bathroom tiles under any circumstances.",
                                 "Always close the window in the stairwell when you leave."])
            + " " + rng.choice(["Rubbish must be separated properly or the collection will be refused.",
                                 "Never leave the front door on the latch.",
                                 "Parcels left in the entrance will be thrown away after 3 days."])
            + "\n\n" + fill(rng, 3) + f"\n\nRegards,\n{name}\nHausverwaltung {rng.choice(LAST)} GmbH")


def paste_booking(rng: random.Random) -> str:
    city = rng.choice(CITIES)
    return (f"Booking confirmation - Hotel {rng.choice(['Aurora', 'Lindenhof', 'Miramar', 'Central', 'Palace', 'Nordlys'])} {city}\n"
            f"Booking number: {rng.randint(1000, 9999)}.{rng.randint(100, 999)}.{rng.randint(100, 999)} | PIN: {rng.randint(1000, 9999)}\n"
            f"Check-in: {day(rng)} from 15:00 | Check-out: {day(rng)} until 11:00\n\nImportant information\n"
            "Please do not reply to this email. Guests must present the credit card used for booking at check-in. "
            "The property does not accept cash. Quiet hours are from 22:00 to 7:00. " + fill(rng, 5) +
            "\n\nCancellation policy: free until 2 days before arrival; after that the first night is charged.")


def paste_recipe(rng: random.Random) -> str:
    dish = rng.choice(["Shakshuka", "Dal tadka", "Kanelbullar", "Risotto ai funghi", "Käsespätzle", "Miso aubergine"])
    steps = ["Preheat the oven to 180°C.", "Always toast the spices before adding the liquid.",
             "Never let the sauce boil once the cream is in.", "Season generously and taste as you go.",
             "Let the dough rest for at least 30 minutes.", "Don't crowd the pan or it will steam.",
             "Serve immediately with fresh herbs.", "Stir constantly for the last five minutes."]
    return f"{dish} (serves 4)\n\nIngredients\n" + "\n".join(f"- {rng.randint(1, 400)}g {w}" for w in rng.sample(
        ["onion", "tomatoes", "rice", "butter", "flour", "lentils", "cardamom", "eggs", "aubergine", "parmesan", "cream"], 6)) \
        + "\n\nMethod\n" + "\n".join(f"{k}. {s}" for k, s in enumerate(rng.sample(steps, 6), 1))


def paste_newsletter(rng: random.Random) -> str:
    return (f"{rng.choice(ORGS)} Community Newsletter · {day(rng)}\n\n" + "\n\n".join(
        f"## {h}\n{fill(rng, 3)}" for h in rng.sample(["What's on this weekend", "Road closures", "A word from the board",
                                                       "Volunteer corner", "Lost & found", "New opening hours", "Members' offers"], 4))
        + "\n\nMembers are reminded that guest passes must be booked 24 hours in advance. Always bring your membership card."
        + "\nTo stop receiving these emails, click unsubscribe.")


def paste_groupchat(rng: random.Random) -> str:
    names = [rng.choice(FIRST) for _ in range(5)]
    lines = [f"[{clock(rng)}] {n}: {rng.choice(['can someone bring cups', 'we need 2 more drivers for saturday', 'reminder: everyone brings their own snacks', 'pls dont forget the permission slips!!', 'pickup is at the back gate not the front', 'who has the key for the shed', 'no glass bottles at the park please', 'thx all 🙏', 'running late 10 min'])}"
             for n in names * 2]
    return f"Forwarded from group \"{rng.choice(['Class 3B parents', 'Football U10', 'Building Linden 14', 'Choir'])}\":\n" + "\n".join(lines)


PASTES: list[tuple[Callable[[random.Random], str], list[str]]] = [
    (paste_school, ["school sent this, anything i need to do?", "can u read this policy thing from school and tell me what matters"]),
    (paste_landlord, ["fwd from the landlord 🙄 what does he want", "the Hausverwaltung again. summary pls"]),
    (paste_booking, ["got this confirmation, put the dates in my calendar", "is this the one we talked abt? check the dates"]),
    (paste_recipe, ["making this tonight, whats missing from my shopping list", "add whatever i need for this to the shopping list"]),
    (paste_newsletter, ["anything in this worth going to", "newsletter from the club, tldr?"]),
    (paste_groupchat, ["what do they want from me in this chat", "summarize the parents chat pls, too many msgs"]),
]


# --- noise episodes -------------------------------------------------------------------------------

ONEOFF = [
    ("book", lambda r: {"type": "restaurant", "party": r.randint(2, 8), "time": clock(r), "place": r.choice(["Luigi's", "Sushi Ko", "Brasserie Nord", "Dishoom", "Tapas 24", "Bar Centrale"])},
     "book a table for {party} at {time}, {place} if they have space", "Booked {place} for {party} at {time}; confirmation is in your email."),
    ("reminders_create", lambda r: {"text": r.choice(["call mum", "pay the gas bill", "water the plants", "renew parking permit", "order contacts"]), "at": clock(r)},
     "remind me to {text} at {time_}", "Reminder set: {text} at {at}."),
    ("home_control", lambda r: r.choice([{"device": "kids.light", "action": "off"}, {"device": "living.blind", "action": "close"},
                                          {"device": "hall.lock", "action": "lock"}, {"device": "bedroom.thermostat", "action": "set 19"}]),
     "can u {action} the {device} thing", "Done: {device} -> {action}."),
    ("shopping", lambda r: {"add": r.sample(["oat milk", "eggs", "coffee beans", "dishwasher tabs", "bin bags", "bananas", "nappies", "toothpaste"], 3)},
     "add {items} to the shopping list", "Added to the list."),
    ("send_email", lambda r: {"to": addr(r), "subject": r.choice(["the pdf", "photos from sunday", "invoice", "running late"]), "body": "as discussed, see attached"},
     "send {to} the {subject} thing, short msg is fine", "Sent to {to}."),
    ("create_event", lambda r: {"title": r.choice(["Coffee with Sam", "Call the bank", "Pick up dry cleaning", "Gym", "Car service"]), "when": f"{day(r)} {clock(r)}"},
     "put {title} in the calendar {when}", "Added: {title}, {when}."),
]

ASKS = ["anything urgent in my inbox", "whats on tmrw", "any news from the bank", "did the package ship",
        "check my calendar for next week", "find me something to do with the kids on sunday", "weather for the weekend?",
        "whats the best route to the airport at rush hour", "how much did i spend on taxis this month",
        "any emails from school", "look up that italian place {name} mentioned", "what time does the pharmacy close",
        "are there still tickets for the concert", "find a plumber near me with good reviews",
        "was wollte die Krankenkasse nochmal", "kal ka schedule kya hai", "vad har jag för möten på fredag",
        "明日の予定は？", "帮我看看这周的日程", "ok so um basically can you look at what i have on thursday and see if i can fit in a haircut somewhere",
        "dumb question but is it mothers day in the UK this sunday"]
CHAT = ["thx!!", "lol ok", "perfect 🙏", "haha yes", "ok cool", "good morning ☀️", "ugh mondays", "👍", "nice one",
        "accha thik hai", "super, danke", "tack så mycket", "ありがとう", "wait what", "ok never mind then",
        "can u also check that later", "you're a lifesaver", "fine whatever works", "hmm let me think"]
REPLIES = ["Here's the short version:", "Summary:", "Checked.", "Done, details below.", "Found it.", "Short answer:"]


def ask(rng: random.Random) -> str:
    return phone(rng, rng.choice(ASKS).format(name=rng.choice(FIRST)))


POINTS = ["{name} wants a reply about {day}", "the {org} invoice is due {day}", "a parcel arrives {day} between {t} and {t2}",
          "{name} moved the call to {t}", "school trip money is due {day}", "nothing from the bank yet",
          "{org} confirmed the appointment for {day} at {t}", "a newsletter from {org}, nothing to do",
          "{name} shared photos from the weekend", "the {org} account needs a new password, which I won't do without you",
          "{name} asked whether {day} still works", "you're double-booked on {day} at {t}"]


def summary(r: random.Random) -> str:
    """What the assistant says after reading things: a few points, in varied shapes."""
    points = [p.format(name=person(r), day=day(r), org=r.choice(ORGS), t=clock(r), t2=clock(r)) for p in r.sample(POINTS, r.randint(2, 5))]
    shape = r.random()
    if shape < 0.4:
        return r.choice(REPLIES) + "\n" + "\n".join(f"- {p[0].upper()}{p[1:]}." for p in points)
    if shape < 0.7:
        return f"{r.choice(REPLIES)} " + "; ".join(points) + ". Want me to draft replies?"
    return " ".join(f"{p[0].upper()}{p[1:]}." for p in points)


def ep_inbox(b: Builder) -> list[Message]:
    r = b.rng
    out = [b.user(ask(r)), *b.tool("email_search", {"query": r.choice(["is:unread", "newer_than:2d", "from:school", "label:bills", "is:starred"]), "limit": 60},
                                   inbox(r, r.randint(25, 60)))]
    for _ in range(r.randint(0, 2)):
        subject = fmt(r, r.choice(SUBJECTS))
        out += b.tool("read_email", {"id": f"msg_{hexs(r, 12)}"}, email_thread(r, subject), f"Opening \"{subject}\".")
    return out + [b.say(summary(r))]


def ep_read(b: Builder) -> list[Message]:
    r = b.rng
    subject = fmt(r, r.choice(SUBJECTS))
    return [b.user(phone(r, f"what does the {subject.lower()} one say")),
            *b.tool("read_email", {"id": f"msg_{hexs(r, 12)}"}, email_thread(r, subject)),
            b.say(summary(r))]


def ep_calendar(b: Builder) -> list[Message]:
    r = b.rng
    return [b.user(ask(r)), *b.tool("calendar_list", {"from": day(r), "days": r.randint(2, 10)}, calendar_dump(r, r.randint(40, 90))),
            b.say(f"You have {r.randint(3, 12)} things on; the tightest day is {day(r)}. " + summary(r))]


def ep_search(b: Builder) -> list[Message]:
    r = b.rng
    q = r.choice(["kids activities sunday", "best ramen near me", "pharmacy opening hours", "ferry timetable",
                  "how to descale a kettle", "family friendly hotels", "christmas market dates", "ikea opening times"])
    out = [b.user(ask(r)), *b.tool("web_search", {"q": q}, search_results(r, q, r.randint(8, 14)))]
    if r.random() < 0.6:
        out += b.tool("fetch_url", {"url": f"https://www.example-{hexs(r, 4)}.com/{q.replace(' ', '-')}"}, web_page(r, q.title(), r.randint(10, 24)))
    return out + [b.say(f"{r.choice(REPLIES)} {fill(r, 2)} {fill(r, 1)}")]


def ep_paste(b: Builder) -> list[Message]:
    r = b.rng
    make, asks = r.choice(PASTES)
    paste = make(r)
    prose = phone(r, r.choice(asks))
    body = f"{prose}\n\n{paste}" if r.random() < 0.7 else f"{paste}\n\n{prose}"
    return [b.user(body, paste), b.say(f"{r.choice(REPLIES)} those are their rules, not anything you agreed to; {r.choice(['nothing urgent', 'one thing needs a reply', 'I added the dates to your calendar', 'they want an answer by the end of the week'])}.")]


def ep_oneoff(b: Builder) -> list[Message]:
    r = b.rng
    name, make, ask_t, done = r.choice(ONEOFF)
    args = make(r)
    values = {**{k: (", ".join(v) if isinstance(v, list) else v) for k, v in args.items()}, "items": ", ".join(args.get("add", [])), "time_": args.get("at", "")}
    return [b.user(phone(r, ask_t.format(**values))), *b.tool(name, args, json.dumps({"ok": True, "id": f"{name[:3]}_{hexs(r, 8)}"})),
            b.say(done.format(**values))]


def ep_receipt(b: Builder) -> list[Message]:
    r = b.rng
    return [b.user(phone(r, r.choice(["receipt from lunch, file it", "[image] expense this pls", "scan this receipt for the work sheet"]))),
            *b.tool("expense_ocr", {"image": f"IMG_{r.randint(1000, 9999)}.jpg"}, receipt(r)),
            b.say("Filed under this month's expenses.")]


def ep_travel(b: Builder) -> list[Message]:
    r = b.rng
    src, dst = r.sample(CITIES, 2)
    return [b.user(phone(r, f"what flights are there {src} to {dst} sometime next month, just looking")),
            *b.tool("book", {"type": "flight_search", "from": src, "to": dst}, flights(r, src, dst, r.randint(40, 80))),
            b.say(f"Cheapest direct is around EUR {r.randint(60, 300)}; nothing booked, just looking as you said.")]


def ep_home(b: Builder) -> list[Message]:
    r = b.rng
    return [b.user(phone(r, r.choice(["is the garage locked", "did i leave lights on", "how warm is it in the kids room"]))),
            *b.tool("home_control", {"action": "status"}, home_status(r)), b.say("Checked the hub, see the state above.")]


def ep_notes(b: Builder) -> list[Message]:
    r = b.rng
    rows = "\n".join(f"- notes/{r.choice(['ideas', 'misc', 'kids', 'work', 'house'])}/{hexs(r, 5)}.md  \"{fill(r, 1)[:60]}\"" for _ in range(r.randint(8, 20)))
    return [b.user(phone(r, "do i have a note abt " + r.choice(["the boiler", "gift ideas", "the car insurance", "passwords for the router"]))),
            *b.tool("notes_search", {"q": "recent"}, rows), b.say("A few matches, none look exactly like it.")]


def ep_chat(b: Builder) -> list[Message]:
    r = b.rng
    return [b.user(phone(r, r.choice(CHAT))), b.say(r.choice(["👍", "Anytime.", "Noted.", "Sure, later today.", "OK."]))]


def ep_routine_error(b: Builder) -> list[Message]:
    r = b.rng
    err = r.choice(["429 Too Many Requests: retry after 30s", "503 Service Unavailable (upstream timeout)",
                    "ECONNRESET while reading calendar feed", "401 token expired, refreshing"])
    return [b.user(ask(r)), *b.tool("calendar_list", {"days": 3}, f"error: {err}"),
            *b.tool("calendar_list", {"days": 3}, calendar_dump(r, r.randint(8, 20)), "Transient error; retrying once."),
            b.say("Worked on the second try.")]


NOISE: list[tuple[Callable[[Builder], list[Message]], float]] = [
    (ep_inbox, 1.3), (ep_read, 1.5), (ep_calendar, 1.0), (ep_search, 1.2), (ep_paste, 2.4), (ep_oneoff, 2.2),
    (ep_receipt, 0.6), (ep_travel, 0.6), (ep_home, 0.5), (ep_notes, 0.5), (ep_chat, 1.4), (ep_routine_error, 0.3)]


def busy(b: Builder) -> list[Message]:
    """One or two large lookups the assistant does on the way (inbox, a thread, the calendar, a page)."""
    r, out = b.rng, []
    for _ in range(r.choice([1, 1, 2])):
        pick = r.random()
        if pick < 0.3:
            out += b.tool("email_search", {"query": r.choice(["newer_than:1d", "is:unread", "label:family"])}, inbox(r, r.randint(25, 55)), "Checking mail first.")
        elif pick < 0.6:
            subject = fmt(r, r.choice(SUBJECTS))
            out += b.tool("read_email", {"id": f"msg_{hexs(r, 12)}"}, email_thread(r, subject), "Reading the related thread.")
        elif pick < 0.85:
            out += b.tool("calendar_list", {"from": day(r), "days": 7}, calendar_dump(r, r.randint(40, 80)), "Looking at the calendar.")
        else:
            q = r.choice(["opening hours", "train strike", "school holidays bavaria", "kids events"])
            out += b.tool("fetch_url", {"url": f"https://www.example-{hexs(r, 4)}.com/{q.replace(' ', '-')}"}, web_page(r, q.title(), r.randint(10, 20)))
    return out


def noise_episode(b: Builder) -> list[Message]:
    for _ in range(60):
        make = b.rng.choices([f for f, _w in NOISE], [w for _f, w in NOISE])[0]
        episode = make(b)
        if b.rng.random() < 0.6:
            episode = episode[:-1] + busy(b) + episode[-1:]
        if not b.found(episode):
            return episode
    return [b.user("ok"), b.say("OK.")]


# --- planted facts ---------------------------------------------------------------------------------
# Each table row draws its values with ``u`` (unique within the session, none part of another), then
# says them. ``{V}`` is the value, ``{S}`` the stale one; the marks keep typos off them.


class Uniq:
    def __init__(self, rng: random.Random) -> None:
        self.rng, self.used = rng, set[str]()

    def __call__(self, make: Callable[[random.Random], str]) -> str:
        for _ in range(300):
            value = make(self.rng)
            if not any(value in u or u in value for u in self.used):
                self.used.add(value)
                return value
        raise RuntimeError("could not draw a unique value")


Draw = Callable[[Uniq], dict[str, str]]


def one(make: Callable[[random.Random], str]) -> Draw:
    return lambda u: {"v": u(make)}


def two(make: Callable[[random.Random], str], other: Callable[[random.Random], str] | None = None) -> Draw:
    return lambda u: {"s": u(make), "v": u(other or make)}


def street(r: random.Random) -> str:
    return f"{r.choice(['Kastanienallee', 'Rua das Flores', 'Birkenweg', 'Södergatan', 'Via Roma', 'Mill Lane', 'Linnégatan'])} {r.randint(2, 140)}{r.choice(['', 'a', 'b'])}"


INSTRUCTIONS: list[tuple[Draw, str, str]] = [
    (one(lambda r: f"before {r.choice([9, 10])}:{r.choice([10, 20, 40, 50])}"),
     "never book anything {V} in the morning, im useless before coffee", "the earliest time anything may be booked"),
    (one(lambda r: f"cc {r.choice(['ana', 'ines', 'mira'])}.{r.choice(LAST).lower()}{r.randint(10, 99)}@{r.choice(DOMAINS)}"),
     "my wife's name is Ana btw, {V} on anything about the school", "who to cc on anything about the school"),
    (one(lambda r: f"allergic to {r.choice(['cashews', 'sesame', 'kiwi', 'shellfish', 'pistachios'])} and {r.choice(['mustard', 'celery', 'lupin', 'buckwheat'])}"),
     "im vegetarian and Noor is {V} so keep that in mind for any restaurant or food order", "the family's food restrictions"),
    (one(lambda r: f"max {r.choice(['€', 'EUR '])}{r.randint(110, 260)} a night"),
     "hotels {V} unless i say otherwise, i dont care about stars", "the nightly hotel budget"),
    (one(lambda r: f"card ending {r.randint(1000, 9999)}"),
     "anything work related goes on the {V}, personal stuff on the other one", "which card pays for work expenses"),
    (one(lambda r: f"{r.randint(2, 5)} baje ke baad koi meeting mat rakhna"),
     "yaar ek baat, friday ko {V}, bachchon ko pick karna hota hai", "the Friday afternoon meeting limit"),
    (one(lambda r: f"immer an rechnungen-{hexs(r, 4)}@{r.choice(['steuer-kanzlei.de', 'buchhaltung.de'])}"),
     "ach und Rechnungen bitte {V} weiterleiten, die Steuerberaterin braucht alles", "where invoices get forwarded"),
    (one(lambda r: f"alltid fönsterplats, {r.choice(['SAS', 'Norwegian'])} EuroBonus {r.randint(100000000, 999999999)}"),
     "förresten: {V} på alla flyg", "the seat preference and frequent-flyer number for flights"),
    (one(lambda r: f"土曜日の{r.randint(8, 11)}時前は予定を入れないで"),
     "あと、{V}。family time", "the Saturday morning rule"),
    (one(lambda r: f"不要在晚上{r.randint(8, 10)}点以后打电话"),
     "给我妈妈安排视频电话的时候，{V}，她睡得早", "the latest time for calls with the user's mother"),
    (one(lambda r: f"invites from @{r.choice(['apex', 'vertex', 'summit', 'prime'])}{r.choice(['consult', 'advisory', 'growth'])}{r.randint(2, 99)}.com"),
     "dont ever accept {V} without asking me, theyre a nightmare", "which domain's invites need the user's approval"),
    (one(lambda r: f"project code PX-{r.randint(1000, 9999)}"),
     "so basically whenever you book travel for work put it in the expense sheet with {V} yeah otherwise finance bounces it", "the project code for work travel expenses"),
    (one(lambda r: f"{r.choice([3, 4, 5])} lines max"),
     "pls keep replies short, like {V}, i read everything on my phone", "how long replies should be"),
    (one(lambda r: f"never above {r.randint(19, 22)}.{r.choice([5, 0])}°C at night"),
     "thermostat in the kids room {V}, they overheat and wake up", "the night limit for the kids room thermostat"),
    (one(lambda r: f"family calendar (fam-{hexs(r, 8)})"),
     "anything with the kids goes in the {V}, not my work one", "where kids' events go"),
]

CORRECTIONS: list[tuple[Draw, str, str, str]] = [
    (two(lambda r: f"{r.choice(['LH', 'SK', 'TP', 'LX'])}{r.randint(1000, 9999)}"),
     "im on {S} to Lisbon thursday, can u track it", "sorry wrong flight number, its {V}", "the flight to track on Thursday"),
    (lambda u: (lambda d: {"s": u(lambda r: f"Dec {d} at {r.randint(2, 5)}:{r.choice([10, 20, 40, 50])}pm"), "v": u(lambda r: f"the {d + 2}th not the {d}th")})(u.rng.randint(11, 17)),
     "dentist appt is {S}, put it in pls", "oh the dentist is {V}, same time", "the dentist appointment date"),
    (two(street),
     "send the flowers for mum to {S}, Porto", "no wait, send them to {V}, she moved last month i forgot", "the address for mum's flowers"),
    (lambda u: (lambda f: {"s": u(lambda r: f"{f} {r.choice(LAST)}"), "v": u(lambda r: f"{f} {r.choice(LAST)}")})(u.rng.choice(["Jordan", "Alex", "Sam", "Kim"])),
     "ask {S} if he can do the boiler next week", "the other one! {V}, not the one from the gym", "which person to ask about the boiler"),
    (two(lambda r: f"{r.randint(1000, 9999)}#{r.choice('ABCDEF')}"),
     "door code for the airbnb is {S}, send it to my sister", "sorry the door code is {V}, i read it off the wrong email", "the airbnb door code"),
    (two(lambda r: f"invoices@{r.choice(['kestrel', 'northwind', 'helio'])}-{hexs(r, 3)}.com"),
     "send the signed quote to {S}", "oops wrong address, its {V}", "where the signed quote goes"),
    (two(lambda r: f"Raum {r.choice('ABCD')}{r.randint(100, 399)}"),
     "Elternabend ist am Dienstag in {S}, trag das ein", "ach nee, {V}, hab mich vertan", "the room of the parents evening"),
    (two(lambda r: f"pass {r.randint(1, 6)} på {r.choice(['tisdag', 'onsdag', 'torsdag'])} kl {r.randint(7, 19)}"),
     "tvättstugan är bokad {S}, påminn mig", "fel av mig, det är {V}", "when the laundry room is booked"),
    (two(lambda r: f"gate {r.choice('NSEW')}{r.randint(2, 19)}"),
     "pickup for the kids at the zoo trip is at {S}", "ugh mixed it up, pickup is {V} per the teacher", "where the zoo trip pickup is"),
    (two(lambda r: f"{r.randint(12, 30)} guests"),
     "the surprise party is {S}, find a place", "hmm actually make it {V}, i forgot the neighbours", "the number of guests for the surprise party"),
    (two(lambda r: f"policy TS-{r.randint(100000, 999999)}"),
     "the car insurance is {S}, check what it covers", "wrong number lol, the car one is {V}", "the car insurance policy number"),
    (two(lambda r: f"platform {r.randint(2, 19)}{r.choice(['', 'a', 'b'])} at {r.randint(6, 9)}:{r.randint(10, 59)}"),
     "grandpa arrives {S}, can u remind me to be there", "sorry it's {V}, he texted again", "where and when grandpa's train arrives"),
    (two(lambda r: f"size {r.choice(['EU', 'UK'])} {r.randint(28, 38)}"),
     "order the football boots for Leo, {S}", "no no, {V}, his feet grew", "the shoe size for Leo's boots"),
]

DECISIONS: list[tuple[Draw, str, str, str]] = [
    (two(lambda r: f"Hotel {r.choice(['Aurora', 'Miramar', 'Lindenhof', 'Nordlys'])} {r.choice(['Riverside', 'Old Town', 'Harbour'])}",
         lambda r: f"the {r.choice(['Ibis', 'Motel One', 'Scandic', 'Novotel'])} {r.choice(['Hauptbahnhof', 'Central Station', 'Estação'])} {r.randint(2, 9)}"),
     "ok lets do {X} for the conference", "actually lets do {V}, the one near the station, walking is easier", "which hotel for the conference"),
    (two(lambda r: f"{r.choice(['Trattoria', 'Osteria', 'Bistro'])} {r.choice(['Bella', 'Lupa', 'Vino', 'Sole'])} {r.randint(2, 9)}"),
     "for the anniversary lets go with {X}", "changed my mind, {V} instead, the other one has no vegetarian mains", "the restaurant for the anniversary"),
    (two(lambda r: f"{r.choice(['Forest', 'Lake', 'Robo', 'Art'])} camp week {r.randint(27, 34)}"),
     "kids summer camp: {X}", "talked to Ana, we do {V} after all", "the kids' summer camp"),
    (two(lambda r: f"{r.choice(['Sixt', 'Hertz', 'Europcar'])} {r.choice(['compact', 'estate', 'SUV'])} {r.choice(['VW', 'Skoda', 'Volvo'])}-{r.randint(10, 99)}"),
     "rental car: {X}", "scrap that, {V} — need the boot space", "the rental car"),
    (two(lambda r: f"the {r.choice(['blue', 'green', 'grey'])} {r.choice(['Kindle', 'cashmere scarf', 'espresso machine'])} ({r.randint(60, 240)} eur)"),
     "for mums birthday get {X}", "nah get {V}, she already has the other", "mum's birthday present"),
    (two(lambda r: f"{r.choice(['UmzugProfi', 'MoveExpress'])} quote {r.randint(1200, 3900)} eur", lambda r: f"{r.choice(['FlyttBros', 'Packfix'])} at {r.randint(1200, 3900)} eur"),
     "movers: go with {X}", "second thoughts, {V}, they do the packing too", "which moving company"),
    (two(lambda r: f"{r.choice(['Telekom', 'Vodafone', 'O2'])} {r.choice([250, 500, 1000])} Mbit {r.choice(['fiber', 'cable'])}"),
     "internet: lets take {X}", "hmm {V} instead, the other has a 24 month contract", "the home internet plan"),
    (two(lambda r: f"ICE {r.randint(500, 999)} at {r.randint(6, 12)}:{r.randint(10, 59)}"),
     "we take {X} to Hamburg", "make it {V}, the earlier one is silly with the kids", "the train to Hamburg"),
    (two(lambda r: f"{r.choice(['Farrow', 'Little Greene', 'Alpina'])} '{r.choice(['Sage', 'Dove', 'Oat', 'Slate'])} {r.randint(10, 99)}'"),
     "kitchen paint: {X}", "ok final answer {V}", "the kitchen paint colour"),
    (two(lambda r: f"party on {r.choice(['Sat', 'Sun'])} the {r.randint(3, 28)}th at {r.choice(['the trampoline park', 'home', 'the bowling alley'])}"),
     "Leo's birthday: {X}", "switching it: {V}, weather's too risky otherwise", "when and where Leo's party is"),
    (two(lambda r: f"{r.choice(['Allianz', 'HUK', 'Tessera'])} {r.choice(['Basis', 'Komfort', 'Premium'])} tier {r.randint(2, 9)}"),
     "health insurance: going with {X}", "on second thought {V}", "the health insurance plan"),
    (two(lambda r: f"{r.choice(['TP', 'LH', 'LX'])}{r.randint(100, 999)} via {r.choice(['Zurich', 'Frankfurt', 'Munich'])} {r.randint(6, 20)}:{r.randint(10, 59)}"),
     "book {X} for the Lisbon offsite", "no, {V} — the other connection is too tight", "the flight for the Lisbon offsite"),
    (two(lambda r: f"{r.choice(['piano', 'swimming', 'judo'])} on {r.choice(['Tuesdays', 'Wednesdays'])} at {r.randint(15, 17)}:{r.choice([15, 30, 45])}"),
     "for Mia lets do {X}", "change that to {V}, clashes with my calls", "Mia's weekly activity slot"),
]

PLANS: list[tuple[Draw, str, str]] = [
    (one(lambda r: f"drop Leo at {r.choice(['judo', 'Max', 'the pool'])} {r.randint(8, 10)}:{r.randint(10, 59)}, then IKEA for the {r.choice(['shelf', 'bunk bed', 'desk'])}, then cake from {r.choice(['Bäckerei', 'Konditorei'])} {r.choice(LAST)}"),
     "ok so plan for saturday: {V}", "the Saturday plan"),
    (one(lambda r: f"first the {r.choice(['passport', 'visa', 'ID'])} appointment on the {r.randint(3, 28)}th, then book flights, then the hotel in {r.choice(CITIES)}"),
     "for the japan trip the order is {V}, dont book anything before the passport is sorted", "the order of steps for the trip"),
    (one(lambda r: f"call 3 movers by {r.choice(['friday', 'wednesday'])}, pick one by the {r.randint(10, 20)}th, pack the {r.choice(['cellar', 'attic', 'garage'])} first"),
     "moving plan: {V}", "the moving plan"),
    (one(lambda r: f"gift for {r.choice(FIRST)} by {day(r)}, then book the {r.choice(['cabin', 'restaurant', 'spa'])}, then tell everyone"),
     "this week: {V}", "this week's plan"),
    (one(lambda r: f"morning in {r.choice(['Alfama', 'Belém', 'Baixa'])}, lunch at {r.choice(['Time Out Market', 'Cervejaria Ramiro'])}, {r.randint(3, 5)}pm tram {r.randint(12, 28)}"),
     "lisbon day one: {V}", "the plan for the first day in Lisbon"),
    (one(lambda r: f"tax stuff: receipts by the {r.randint(5, 25)}th, then send to the Steuerberaterin, then pay the {r.choice(['Vorauszahlung', 'balance'])}"),
     "{V}. in that order pls", "the tax paperwork plan"),
    (one(lambda r: f"{r.choice(['monday', 'tuesday'])} renew the {r.choice(['Anwohnerparkausweis', 'library cards', 'gym membership'])}, {r.choice(['wednesday', 'thursday'])} car to the garage at {r.randint(7, 9)}:{r.randint(10, 59)}"),
     "voice note transcribed: so um {V} and then i think that's it for the week", "the errands for next week"),
    (one(lambda r: f"vergleiche {r.randint(3, 5)} Kitas, Besichtigung bis {day(r)}, dann Anmeldung"),
     "Plan für die Kita: {V}", "the plan for choosing a daycare"),
    (one(lambda r: f"book the cabin, then {r.randint(2, 4)} hikes, {r.choice(['sauna', 'lake swim'])} on the last day, home by {r.randint(15, 19)}:00 sunday"),
     "for the midsommar weekend: {V}", "the plan for the midsommar weekend"),
    (one(lambda r: f"pehle bank ka kaam {day(r)}, phir {r.choice(['Diwali', 'shaadi'])} ke liye shopping, phir tickets"),
     "plan ye hai: {V}", "the plan around the bank errand and shopping"),
    (one(lambda r: f"offsite: venue shortlist by {day(r)}, agenda draft to {r.choice(FIRST)}, invites after sign-off"),
     "for the offsite, sequence is {V}", "the offsite planning sequence"),
    (one(lambda r: f"sell the {r.choice(['old bike', 'pram', 'sofa'])} on kleinanzeigen, then use the money for the {r.choice(['bike trailer', 'new mattress', 'dishwasher'])}, cap {r.randint(150, 700)} eur"),
     "so the plan: {V}", "the plan for selling and buying"),
    (one(lambda r: f"1) renew passports 2) book {r.choice(['Kyoto', 'Osaka', 'Sapporo'])} ryokan 3) JR pass by {day(r)}"),
     "priorities until xmas: {V}", "the priorities until Christmas"),
]

# errors: (draw, how it appears, query); how: tool name and output around the value
ERRORS: list[tuple[Draw, str, Callable[[str], str], str]] = [
    (one(lambda r: f"room type DLX-{r.randint(100, 999)} no longer available for the selected dates"),
     "book", lambda v: f"BookingError: {v} (code ROOM_SOLD_OUT)", "the failed hotel booking"),
    (one(lambda r: f"card ending {r.randint(1000, 9999)} declined (do_not_honor)"),
     "book", lambda v: f"HTTP 402 Payment Required: {v}. No charge was made.", "the declined payment"),
    (one(lambda r: f"550 5.1.1 <{r.choice(FIRST).lower()}.{hexs(r, 4)}@{r.choice(ORGS).split()[0].lower()}.com>: Recipient address rejected"),
     "send_email", lambda v: f"SMTPRecipientsRefused: {v}: User unknown in virtual mailbox table", "the bounced email"),
    (one(lambda r: f"409 Conflict: event overlaps with evt_{hexs(r, 10)}"),
     "create_event", lambda v: f"CalendarAPIError: {v} (calendar is set to reject double bookings)", "the calendar conflict when creating the event"),
    (one(lambda r: f"receipt_{r.randint(100, 999)}.jpg too blurry (confidence 0.{r.randint(11, 39)})"),
     "expense_ocr", lambda v: f"OCRError: {v}; please retake the photo in better light", "the failed receipt scan"),
    (one(lambda r: f"bridge unreachable at 192.168.{r.randint(0, 9)}.{r.randint(20, 250)}"),
     "home_control", lambda v: f"HueError: {v} (timeout after 10s); lights unchanged", "the home automation failure"),
    (one(lambda r: f"seat {r.randint(10, 39)}{r.choice('ABCDEF')} cannot be assigned on fare class {r.choice(['K', 'L', 'T'])}"),
     "book", lambda v: f"SeatMapError: {v}; seat selection requires an upgrade", "the failed seat selection"),
    (one(lambda r: f"order {r.randint(300, 399)}-{r.randint(1000000, 9999999)} cancelled: item out of stock"),
     "shopping", lambda v: f"MerchantError: {v}, refund issued to original payment method", "the cancelled shopping order"),
    (one(lambda r: f"no availability for {r.randint(2, 8)} at {r.randint(19, 21)}:{r.choice([15, 45])} on {day(r)}"),
     "book", lambda v: f"OpenTableError: {v}; nearest slots 18:00 and 22:30", "the failed restaurant booking"),
    (one(lambda r: f"DB Navigator: Sparpreis for ICE {r.randint(100, 499)} sold out"),
     "book", lambda v: f"BahnAPIError: {v}; Flexpreis available at a higher fare", "the failed train ticket booking"),
    (one(lambda r: f"fetch failed: 403 Forbidden for https://portal.{r.choice(['kita', 'schule', 'gemeinde'])}-{hexs(r, 4)}.de/login"),
     "fetch_url", lambda v: f"{v} (the site blocks automated access)", "the school portal access failure"),
    (one(lambda r: f"quota exceeded for notes store: {r.randint(501, 999)} MB of 500 MB"),
     "save_note", lambda v: f"StorageError: {v}; note not saved", "the failed note save"),
    (one(lambda r: f"visa application {caps(r, 3)}{r.randint(10000, 99999)} rejected: photo does not meet requirements"),
     "fetch_url", lambda v: f"Status page: {v}. Please upload a new photo within 14 days.", "the rejected visa application"),
]

FILES: list[Callable[[random.Random], str]] = [
    lambda r: f"notes/packing-list-{r.choice(CITIES).lower()}-{hexs(r, 4)}.md",
    lambda r: f"Documents/Taxes/2026/receipts-{r.choice(['nov', 'dec', 'oct'])}-{hexs(r, 4)}.pdf",
    lambda r: f"notes/gift-ideas-{r.choice(FIRST).lower()}-{hexs(r, 3)}.md",
    lambda r: f"Documents/House/boiler-quote-{r.choice(LAST).lower()}-{hexs(r, 3)}.pdf",
    lambda r: f"notes/kids/{r.choice(['school', 'camp', 'judo'])}-{hexs(r, 5)}.md",
    lambda r: f"Documents/Travel/itinerary-{r.choice(CITIES).lower()}-{hexs(r, 4)}.pdf",
    lambda r: f"notes/meal-plan-week-{r.randint(1, 52)}-{hexs(r, 3)}.md",
    lambda r: f"Documents/Insurance/claim-{hexs(r, 6)}.pdf",
    lambda r: f"notes/meeting-{r.choice(ORGS).split()[0].lower()}-{hexs(r, 4)}.md",
    lambda r: f"Documents/Car/service-{r.randint(2024, 2026)}-{hexs(r, 4)}.pdf",
    lambda r: f"notes/wedding-speech-draft-{hexs(r, 4)}.md",
    lambda r: f"Documents/Lease/{r.choice(['handover', 'deposit', 'inventory'])}-{hexs(r, 4)}.pdf",
    lambda r: f"notes/reading-list-{hexs(r, 5)}.md",
]

# identifiers: (how, make, user template or None, query)
IDENTIFIERS: list[tuple[str, Callable[[random.Random], str], str | None, str]] = [
    ("hotel", lambda r: f"{r.randint(1000, 9999)}.{r.randint(100, 999)}.{r.randint(100, 999)}", None, "the hotel booking number"),
    ("flight", lambda r: caps(r, 6), None, "the flight booking reference (PNR)"),
    ("order", lambda r: f"{r.randint(300, 399)}-{r.randint(1000000, 9999999)}-{r.randint(1000000, 9999999)}", None, "the order id of the shoe order"),
    ("user", lambda r: f"CLM-{r.randint(2026000, 2026999)}-{caps(r, 2)}", "the insurance case number is {V}, use it whenever u write to them", "the insurance claim number"),
    ("tracking", lambda r: f"1Z{caps(r, 6)}{r.randint(10**9, 10**10 - 1)}", None, "the parcel tracking number"),
    ("user", lambda r: f"DE{r.randint(10, 99)} {r.randint(1000, 9999)} {r.randint(1000, 9999)} {r.randint(1000, 9999)} {r.randint(1000, 9999)} {r.randint(10, 99)}",
     "fwiw the IBAN for the nanny is {V}, pay her monthly", "the nanny's IBAN"),
    ("table", lambda r: f"OT-{caps(r, 4)}-{r.randint(100, 999)}", None, "the restaurant reservation code"),
    ("user", lambda r: f"Aktenzeichen {r.randint(10, 99)} {caps(r, 1)} {r.randint(100, 999)}/26", "das Finanzamt-{V} bitte immer angeben", "the tax office case reference"),
    ("train", lambda r: f"{r.randint(100000000000, 999999999999)}", None, "the train ticket order number"),
    ("user", lambda r: f"https://meet.{r.choice(['jit.si', 'whereby.com'])}/{r.choice(['ana', 'fam', 'kids'])}-{hexs(r, 8)}", "the family call link is {V}, send it for sunday calls", "the family video-call link"),
    ("event", lambda r: f"evt_{hexs(r, 14)}", None, "the calendar event id of the vet appointment"),
    ("user", lambda r: f"Kundennummer {r.randint(10000000, 99999999)}", "Stadtwerke {V}, falls die anrufen", "the utility customer number"),
    ("ticket", lambda r: f"TKT-{caps(r, 3)}-{r.randint(10000, 99999)}", None, "the concert ticket confirmation code"),
]

FINDINGS: list[tuple[str, Callable[[random.Random], str], str]] = [
    ("warranty", lambda r: f"warranty ends {r.randint(1, 28)} {r.choice(['March', 'April', 'June'])} {r.randint(2027, 2029)}", "when the dishwasher warranty ends"),
    ("cheapest", lambda r: f"EUR {r.randint(60, 400)}.{r.randint(10, 99)} direct", "the cheapest direct flight price"),
    ("fine", lambda r: f"Verwarnungsgeld {r.randint(15, 70)},{r.choice(['00', '50'])} EUR fällig bis {r.randint(1, 28)}.{r.randint(1, 12)}.", "the parking fine amount and due date"),
    ("spend", lambda r: f"taxis this month: EUR {r.randint(100, 600)}.{r.randint(10, 99)}", "how much was spent on taxis this month"),
    ("menu", lambda r: f"vegetarian tasting menu {r.randint(55, 140)} EUR", "the vegetarian tasting menu price"),
    ("hours", lambda r: f"Sunday {r.randint(9, 11)}:{r.choice(['00', '30'])}–{r.randint(13, 16)}:{r.choice(['00', '30'])} (Notdienst)", "the pharmacy's Sunday hours"),
    ("deposit", lambda r: f"deposit of {r.randint(1500, 4500)} EUR is returned within {r.randint(3, 6)} months", "the deposit terms in the lease"),
    ("calendar", lambda r: f"free slot {r.choice(['Tue', 'Thu'])} {r.randint(12, 16)}:{r.choice(['10', '20', '40'])}-{r.randint(16, 18)}:{r.choice(['05', '25', '55'])}", "the free slot found in the calendar"),
    ("refund", lambda r: f"refund of EUR {r.randint(20, 300)}.{r.randint(10, 99)} processed on {r.randint(1, 28)} Nov", "the refund amount"),
    ("price", lambda r: f"now EUR {r.randint(80, 900)},{r.randint(10, 99)} (-{r.randint(10, 40)}%)", "the sale price of the item in the basket"),
    ("plumber", lambda r: f"{r.choice(LAST)} Haustechnik ({r.randint(40, 49) / 10} stars, {r.randint(100, 999)} reviews)", "the best-rated plumber nearby"),
    ("bill", lambda r: f"Abschlag steigt auf {r.randint(90, 240)} EUR", "the new monthly utility payment"),
    ("school", lambda r: f"INSET day on {r.choice(['Mon', 'Fri'])} {r.randint(1, 28)} {r.choice(['Jan', 'Feb'])}", "the school's next INSET day"),
]


def per_kind(messages: int) -> int:
    """Six of each kind at 400 messages, twelve at 3000, fewer on tiny sessions."""
    if messages < 400:
        return max(1, min(6, messages // 60))
    return min(12, 6 + round(6 * (messages - 400) / 2600))


class Planter:
    """Draws every planted value before any message exists, so the noise can stay clear of them."""

    def __init__(self, rng: random.Random, n: int) -> None:
        self.rng = rng
        self.u = Uniq(rng)
        self.items: list[dict[str, Any]] = []
        tables: dict[str, list[Any]] = {"instruction": INSTRUCTIONS, "correction": CORRECTIONS, "decision": DECISIONS,
                                        "error": ERRORS, "file": FILES, "identifier": IDENTIFIERS, "finding": FINDINGS,
                                        "plan": PLANS}
        for kind in KINDS:
            table = tables[kind]
            order = rng.sample(table, len(table))
            picks = [order[k % len(order)] for k in range(n)]
            for k, row in enumerate(picks):
                item: dict[str, Any] = {"kind": kind, "t": row}
                if kind in ("instruction", "plan", "correction", "decision", "error"):
                    item.update(row[0](self.u))
                    if kind == "decision" and k % 3 == 2:
                        item.pop("s")  # not every decision is revised
                elif kind == "file":
                    item["v"] = self.u(row)
                else:
                    item["v"] = self.u(row[1])
                self.items.append(item)

    def values(self) -> list[str]:
        return [x for item in self.items for x in (item.get("v"), item.get("s")) if x]

    def schedule(self, total: int) -> list[tuple[int, int, str]]:
        """(target index, item number, "stale" | "fact"), sorted; a stale part comes well before its fact."""
        events: list[tuple[int, int, int]] = []
        by_kind: dict[str, list[int]] = {}
        for i, item in enumerate(self.items):
            by_kind.setdefault(item["kind"], []).append(i)
        for ids in by_kind.values():
            offset = self.rng.randrange(3)
            for j, i in enumerate(ids):
                lo, hi = BANDS[(j + offset) % 3]
                if "s" in self.items[i]:
                    lo = max(lo, 0.12)
                    frac = self.rng.uniform(lo, hi)
                    early = max(SPAN[0], frac - self.rng.uniform(0.05, 0.3))
                    events.append((int(total * early), 0, i))
                else:
                    frac = self.rng.uniform(lo, hi)
                events.append((int(total * frac), 1, i))
        return [(at, i, "stale" if order == 0 else "fact") for at, order, i in sorted(events)]


def user_text(rng: random.Random, template: str, lead: bool = True, **values: str) -> tuple[str, str]:
    """The user's message carrying a value: phone-typed, sometimes after an ordinary ask, sometimes before one."""
    marked = template.format(**{k: f"{OPEN}{v}{CLOSE}" for k, v in values.items()})
    body = phone(rng, marked, header=False)
    roll = rng.random() if lead else 1.0
    if roll < 0.3:
        body = f"{phone(rng, rng.choice(ASKS).format(name=rng.choice(FIRST)), header=False)}\n\n{rng.choice(['also ', 'oh and ', 'btw ', 'fyi ', 'und ', ''])}{body}"
    elif roll < 0.45:
        body = f"{body}. {rng.choice(ASKS).format(name=rng.choice(FIRST))}"
    text, value = render(with_header(rng, body))
    assert value is not None
    return text, value


ACKS = ["Noted, I'll keep to that.", "Got it.", "OK, remembered.", "Understood, from now on.", "👍 noted."]


def emit(b: Builder, item: dict[str, Any], part: str) -> tuple[list[Message], int, str]:
    """The episode that carries ``item`` (its stale part when ``part`` is "stale"); returns the
    episode, the offset of the carrying message in it, and the value as written."""
    r, kind, t = b.rng, item["kind"], item["t"]
    if kind == "instruction":
        text, value = user_text(r, t[1], V=item["v"])
        if r.random() < 0.2:  # the user's own rule beside a forward whose rules are someone else's
            make, asks = r.choice(PASTES)
            paste = make(r)
            return [b.user(f"{phone(r, r.choice(asks))}\n\n{paste}\n\n{text}", paste), b.say(r.choice(ACKS))], 0, value
        return [b.user(text), b.say(r.choice(ACKS))], 0, value
    if kind == "plan":
        text, value = user_text(r, t[1], V=item["v"])
        return [b.user(text), b.say("OK, I'll go through it in that order and check in after each step.")], 0, value
    if kind in ("correction", "decision"):
        if part == "stale":
            text, value = user_text(r, t[1], S=item["s"], X=item["s"])
            done = "Done, it's in." if kind == "correction" else "Great choice, noted."
            return [b.user(text), b.say(done)], 0, value
        template = t[2] if "s" in item else t[1]
        text, value = user_text(r, template, lead=False, V=item["v"], X=item["v"])
        if kind == "correction" and r.random() < 0.3:  # a correction in the middle of a long message
            text = f"{ask(r)}\n\n{text}\n\n{phone(r, rng_long(r))}"
        return [b.user(text), b.say("Updated, thanks for catching that.")], 0, value
    if kind == "error":
        tool, wrap = t[1], t[2]
        line = wrap(item["v"])
        if r.random() < 0.25:
            paste = f"{line}\n[{r.choice(['Retry', 'OK', 'Contact support'])}]"
            text = phone(r, r.choice(["the app just showed me this", "screenshot text:", "got this when i tried myself"])) + "\n\n" + paste
            return [b.user(text, paste), b.say("That's a failure on their side; I'll try again later and let you know.")], 0, item["v"]
        args = {"book": {"type": r.choice(["hotel", "flight", "restaurant", "train"]), "when": day(r)},
                "send_email": {"to": "(see error)", "subject": "Re: quote"}, "create_event": {"title": "Parents evening", "when": day(r)},
                "expense_ocr": {"image": "upload"}, "home_control": {"device": "living.light", "action": "off"},
                "shopping": {"order": "basket"}, "fetch_url": {"url": "https://portal.example-schule.de/login"}, "save_note": {"path": "notes/inbox.md"}}[tool]
        return [b.user(ask(r)), *b.tool(tool, args, line), b.say("That didn't go through; details above. Want me to try an alternative?")], 2, item["v"]
    if kind == "file":
        path = item["v"]
        content = "\n".join(f"- {s}" for s in r.sample(SENTENCES, r.randint(4, 9)))
        args = {"path": path, "content": content} if path.endswith(".md") else {"path": path, "from_attachment": f"msg_{hexs(r, 12)}"}
        return [b.user(phone(r, r.choice(["save that somewhere pls", "keep this as a note", "file the pdf away", "can u save it so i find it later"]))),
                *b.tool("save_note", args, json.dumps({"saved": True, "bytes": len(content) * 3})), b.say("Saved.")], 1, path
    if kind == "identifier":
        how, value = t[0], item["v"]
        if how == "user":
            text, value = user_text(r, t[2], V=value)
            return [b.user(text), b.say(r.choice(ACKS))], 0, value
        tool, args, output, asked = identifier_output(b, how, value)
        return [b.user(phone(r, asked)), *b.tool(tool, args, output), b.say("Done, confirmation above.")], 2, value
    if kind == "finding":
        tool, args, output, asked = finding_output(b, t[0], item["v"])
        return [b.user(phone(r, asked)), *b.tool(tool, args, output), b.say(r.choice(["Found it, see above.", "Here's what it says.", "That's the relevant bit."]))], 2, item["v"]
    raise ValueError(kind)


def rng_long(r: random.Random) -> str:
    return " ".join(r.choice(["and then", "so", "also"]) + " " + r.choice(ASKS).format(name=r.choice(FIRST)) for _ in range(r.randint(2, 4)))


def identifier_output(b: Builder, how: str, value: str) -> tuple[str, dict[str, Any], str, str]:
    r = b.rng
    if how == "hotel":
        return ("book", {"type": "hotel", "city": r.choice(CITIES), "nights": r.randint(1, 4)},
                f"Booked. Booking number: {value}\n" + paste_booking(r).split("\n", 2)[2], "book the hotel we picked, go ahead")
    if how == "flight":
        return ("book", {"type": "flight"}, f"Ticketed. Booking reference (PNR): {value}\n" + flights(r, "MUC", "LIS", 3), "ok book the flight, window seat")
    if how == "order":
        return ("shopping", {"checkout": "basket"}, json.dumps({"status": "placed", "order_id": value, "items": ["football boots"], "eta": day(r)}, indent=1), "order the boots")
    if how == "tracking":
        return ("read_email", {"id": f"msg_{hexs(r, 12)}"}, email_thread(r, "Your order has shipped", f"Tracking number: {value}", 1), "did the parcel ship")
    if how == "table":
        return ("book", {"type": "restaurant", "party": r.randint(2, 6)}, f"Reservation confirmed. Code {value}. " + fill(r, 3), "book it for thursday")
    if how == "train":
        return ("book", {"type": "train"}, f"Auftragsnummer {value}\n" + fill(r, 4), "buy the train tickets")
    if how == "event":
        return ("create_event", {"title": "Vet (Luna)", "when": day(r)}, json.dumps({"created": True, "id": value}), "put the vet in the calendar")
    return ("read_email", {"id": f"msg_{hexs(r, 12)}"}, email_thread(r, "Your tickets", f"Confirmation code: {value}", 2), "did the concert tickets come through")


def finding_output(b: Builder, how: str, value: str) -> tuple[str, dict[str, Any], str, str]:
    r = b.rng
    msg = {"id": f"msg_{hexs(r, 12)}"}
    if how == "warranty":
        return ("read_email", msg, email_thread(r, "Your product registration", f"Thank you for registering. Your {value}.", 2), "when does the dishwasher warranty run out")
    if how == "cheapest":
        table = flights(r, "MUC", "LIS", r.randint(15, 30))
        return ("book", {"type": "flight_search", "sort": "price"}, table + f"\ncheapest: {value}", "cheapest direct flight to lisbon?")
    if how == "fine":
        return ("read_email", msg, email_thread(r, "Anhörung / Verwarnung", f"Sie haben folgende Ordnungswidrigkeit begangen: Parken im Halteverbot. {value}", 1), "was ist das mit dem strafzettel")
    if how == "spend":
        return ("expense_ocr", {"summary": "this_month"}, receipt(r) + f"\n\nSUMMARY\n{value}\nfood: EUR {r.randint(100, 400)}", "how much on taxis this month")
    if how == "menu":
        return ("fetch_url", {"url": f"https://www.osteria-{hexs(r, 4)}.it/menu"}, web_page(r, "Menu", 4) + f"\n\nTasting menus: classic {r.randint(90, 160)} EUR, {value}", "does that place do a veggie menu and how much")
    if how == "hours":
        return ("fetch_url", {"url": f"https://www.apotheke-am-markt-{hexs(r, 3)}.de/oeffnungszeiten"}, web_page(r, "Öffnungszeiten", 3) + f"\n\nMon–Fri 8:00–18:30, Sat 9:00–13:00, {value}", "is the pharmacy open sunday")
    if how == "deposit":
        return ("read_email", msg, email_thread(r, "Mietvertrag (lease) - final", f"Clause 7: the {value} after the handover.", 1), "what does the lease say abt the deposit")
    if how == "calendar":
        return ("calendar_list", {"days": 7, "find_free": 90}, calendar_dump(r, r.randint(15, 30)) + f"\nfirst {value}", "find me 90 min for a haircut this week")
    if how == "refund":
        return ("email_search", {"query": "refund"}, inbox(r, r.randint(6, 12)) + f"\n\nmatched body: Your {value}.", "did the refund come")
    if how == "price":
        return ("shopping", {"basket": "show"}, json.dumps({"items": [{"name": "stand mixer", "price": value}]}, ensure_ascii=False), "is the mixer on sale yet")
    if how == "plumber":
        return ("web_search", {"q": "plumber near me"}, search_results(r, "plumber near me", 6) + f"\n\ntop rated: {value}", "find a plumber with good reviews")
    if how == "bill":
        return ("read_email", msg, email_thread(r, "Ihre Jahresabrechnung", f"Ab dem nächsten Monat: Ihr {value}.", 1), "what did the stadtwerke send")
    return ("read_email", msg, email_thread(r, "Term dates", f"Please note the {value}; the school is closed to pupils.", 2), "any news from school i should know")


def emit_clean(b: Builder, item: dict[str, Any], part: str) -> tuple[list[Message], int, str]:
    """:func:`emit`, drawn again until no message of the episode carries another fact's value."""
    own = {item.get("v"), item.get("s")}
    for _ in range(80):
        episode, offset, value = emit(b, item, part)
        if b.rng.random() < 0.8:
            episode = episode[:-1] + busy(b) + episode[-1:]
        if b.found(episode) <= own:
            return episode, offset, value
    raise RuntimeError("a fact episode keeps hitting another planted value")


def _query(item: dict[str, Any]) -> str:
    kind, t = item["kind"], item["t"]
    if kind == "file":
        return "a note or document the assistant saved"
    if kind in ("instruction", "plan"):
        return str(t[2])
    return str(t[3]) if kind in ("correction", "decision", "error", "identifier") else str(t[2])


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """An assistant session of about ``messages`` messages (~390 tokens each) with planted facts."""
    rng = random.Random(f"gen_assistant:{seed}:{messages}")
    planter = Planter(rng, per_kind(messages))
    b = Builder(rng, tuple(planter.values()))
    events = planter.schedule(messages)
    facts: list[Fact] = []
    stale_at: dict[int, int] = {}
    stale_said: dict[int, str] = {}
    while events or len(b.messages) < messages - 2:
        if events and events[0][0] <= len(b.messages):
            _target, i, part = events.pop(0)
            item = planter.items[i]
            episode, offset, value = emit_clean(b, item, part)
            at = len(b.messages) + offset
            if part == "stale":
                stale_at[i], stale_said[i] = at, value
            else:
                facts.append(Fact(kind=item["kind"], value=value, index=at, query=_query(item),
                                  stale=stale_said.get(i), stale_index=stale_at.get(i)))
        else:
            episode = noise_episode(b)
            if not events and len(b.messages) + len(episode) > messages - 1:
                episode = [b.user(phone(rng, rng.choice(CHAT))), b.say("OK.")]
        for m in episode:
            paste = m.pop("_paste", None)
            if paste is not None:
                b.pasted.append((len(b.messages), paste))
            b.messages.append(m)
    b.messages.append(b.user(phone(rng, rng.choice(["ok whats left on my list for this week", "recap pls, what's still open",
                                                    "what do i need to do tmrw", "status on everything? heading to bed"]))))
    facts.sort(key=lambda f: (f.index, f.kind))
    return Session(messages=b.messages, facts=facts, seed=seed, pasted=b.pasted)


if __name__ == "__main__":
    import time

    for count in (400, 3000):
        start = time.perf_counter()
        s = make_session(1, count)
        print(count, len(s.messages), s.chars() // 4, len(s.facts), len(s.pasted), f"{time.perf_counter() - start:.2f}s")

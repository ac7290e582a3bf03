"""What a tool call says: its kind by name (shell, read, write, edit, ...), its arguments, the command a
shell ran and the files the call wrote, and the todo list an agent keeps. Structure first: files come from
the names and arguments of the tools that wrote them."""

from __future__ import annotations

import json
import re

from context_compactor.messages import ToolCall

from .identifiers import clip, identifier_items, one_line
from .ledger import Item
from .memos import remembered


_SHELL_TOOL = re.compile(r"bash|shell|exec|run|terminal|command|cmd|^sh$|process|execute", re.IGNORECASE)
_READ_TOOL = re.compile(r"read|view|open|cat|get_?file|fetch|search|grep|glob|find|list|^ls|web|browse|lookup",
                        re.IGNORECASE)
_WRITE_TOOL = re.compile(r"write|create|save|put_?file|new_?file", re.IGNORECASE)
_EDIT_TOOL = re.compile(r"edit|replace|patch|modify|update|insert|apply|change", re.IGNORECASE)
_DELETE_TOOL = re.compile(r"delete|remove|unlink|^rm$", re.IGNORECASE)
_MOVE_TOOL = re.compile(r"move|rename|^mv$", re.IGNORECASE)
_TODO_TOOL = re.compile(r"^(todo_?write|todowrite|update_?plan|todo)$", re.IGNORECASE)
_KINDS = {"shell": _SHELL_TOOL, "read": _READ_TOOL, "write": _WRITE_TOOL, "edit": _EDIT_TOOL,
          "delete": _DELETE_TOOL, "move": _MOVE_TOOL, "todo": _TODO_TOOL}
_NAMES: dict[str, frozenset[str]] = {}  # a session calls a handful of tools thousands of times


def kinds(name: str) -> frozenset[str]:
    """What a tool's name says it does ("shell", "read", "write", "edit", "delete", "move", "todo")."""
    found = _NAMES.get(name)
    if found is None:
        if len(_NAMES) > 4096:
            _NAMES.clear()
        found = _NAMES[name] = frozenset(k for k, pattern in _KINDS.items() if pattern.search(name))
    return found


_PATH_KEYS = ("path", "file_path", "filePath", "filename", "file", "target_file", "target", "relative_path", "workbook",
              "notebook", "document")
_READ_COMMANDS = {"cat", "head", "tail", "less", "more", "grep", "rg", "ls", "find", "wc", "tree", "stat", "file",
                  "awk", "diff", "echo", "pwd", "which", "type", "du", "df", "env", "printenv", "nl"}


def arguments(raw: str) -> dict[str, object]:
    """A call's arguments as a dict ({} when they are not a JSON object); not to be changed by the caller:
    the last few are remembered by the string's identity, since a result is read right after its call."""
    seen = _PARSED.get(id(raw))
    if seen is not None and seen[0] is raw:
        return seen[1]
    try:
        value = json.loads(raw)
    except (ValueError, TypeError, RecursionError):
        value = {}
    parsed: dict[str, object] = value if isinstance(value, dict) else {}
    if len(_PARSED) >= 64:
        _PARSED.clear()
    _PARSED[id(raw)] = (raw, parsed)
    return parsed


_PARSED: dict[int, tuple[str, dict[str, object]]] = {}


# The rank of an id only a call's arguments hold ({"id": "#413444"}): the agent's own choice of what to act on,
# which its result and its words name again when it matters; listed after the ids prose or an output names.
CALLED_ON = -1


def call_items(call: ToolCall, index: int) -> list[Item]:
    return [item._replace(src=index) for item in _call_items_of(call.arguments, call.name)]


# An agent makes the same call again (the test suite rerun, the same file read): each is read once, as made
# by message 0, and its items are given the message's index above.
@remembered(512, chars=4_000)
def _call_items_of(raw: str, name: str) -> tuple[Item, ...]:
    return _call_items(ToolCall("", name, raw), 0)


def _call_items(call: ToolCall, index: int) -> tuple[Item, ...]:
    name = one_line(call.name)
    args = arguments(call.arguments)
    items: list[Item] = []
    if "todo" in kinds(call.name):
        task = task_item(args, index)
        return (task,) if task is not None else ()
    command = shell_command(call, args)
    if command is not None:
        items.append(Item("command", command, f"`{clip(command, 300)}`", index))
        items.extend(file_item(path, action, index) for path, action in shell_writes(command))
    else:
        items.extend(file_item(path, action, index) for path, action in tool_writes(call.name, args))
    short = {k: v for k, v in args.items() if isinstance(v, str) and len(v) <= 300}
    for value in short.values():  # what a call is made on: given room after the ids prose or an output names
        items.extend(i._replace(rank=CALLED_ON) for i in identifier_items(value, index, strong_only=False))
    items.append(Item("state", "action", f"Last action: {name} {clip(call.arguments, 160)}", index))
    return tuple(items)


def task_item(args: dict[str, object], index: int) -> Item | None:
    entries = args.get("todos") or args.get("plan") or args.get("items")
    if not isinstance(entries, list):
        return None
    open_tasks = []
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        label = entry.get("content") or entry.get("step") or entry.get("title") or entry.get("task")
        status = str(entry.get("status", "")).lower()
        if isinstance(label, str) and status not in ("completed", "done", "cancelled"):
            open_tasks.append(f"{clip(label, 160)} ({status or 'open'})")
    text = "Open tasks: " + "; ".join(open_tasks) if open_tasks else "Open tasks: none (all completed)"
    return Item("goal", "tasks", text, index)


def shell_command(call: ToolCall, args: dict[str, object]) -> str | None:
    if "shell" not in kinds(call.name):
        return None
    for key in ("command", "cmd", "script", "code", "input"):
        value = args.get(key)
        if isinstance(value, str):
            return value.strip()
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return " ".join(str(v) for v in value)
    if call.arguments and not args:
        return call.arguments.strip()
    return None


def file_item(path: str, action: str, index: int) -> Item:
    """A file the work changed; one it made whole (written, created), moved or deleted ranks above one
    it edited: of hundreds of files touched in a long session, what the work made is what it was about."""
    return Item("file", path, f"{path}: {action}", index, rank=0 if action == "edited" else 1)


def tool_writes(name: str, args: dict[str, object]) -> list[tuple[str, str]]:
    """(path, what was done) for a file tool's call, from its name and arguments."""
    patch = next((v for k, v in args.items() if k in ("patch", "diff", "input") and isinstance(v, str)), None)
    if patch is not None and ("*** " in patch or "+++ " in patch):
        return patch_writes(patch)
    saved = _saved_to(args)
    if saved:
        return saved
    path = next((v for k in _PATH_KEYS if isinstance(v := args.get(k), str) and v), None)
    if path is None or len(path) > 300 or "\n" in path:
        return []
    kind = kinds(name)
    if "read" in kind and not ("write" in kind or "edit" in kind):
        return []
    if "delete" in kind:
        return [(path, "deleted")]
    if "move" in kind:
        dest = next((v for k in ("destination", "dest", "new_path", "to", "target_path") if isinstance(v := args.get(k), str)), None)
        return [(path, f"moved to {dest}"), (dest, f"moved from {path}")] if dest else [(path, "moved")]
    if "write" in kind:
        return [(path, "written")]
    if "edit" in kind:
        return [(path, "edited")]
    return []


# An argument that says where any tool puts what it makes ("save_to", "save_draft_as", "output_path", "export
# to"), whose value is a file's path: that file is written, whatever the tool is called.
_SAVE_KEY = re.compile(r"^(?:save|write|export|output|out|dest|destination|to)(?:_\w+)?$|_(?:as|to|path|file)$",
                       re.IGNORECASE)
_FILE_PATH = re.compile(r"^(?:[\w.@~-]+/)+[\w.@-]+\.\w{1,6}$|^[\w@-][\w.@-]*\.(?:md|txt|csv|json|ya?ml|html|pdf|"
                        r"docx?|xlsx?|parquet|log|tsv|xml|toml|ini|cfg|conf|sql|sh|py)$")


def _saved_to(args: dict[str, object]) -> list[tuple[str, str]]:
    return [(v, "written") for k, v in args.items() if isinstance(v, str) and len(v) <= 300 and _SAVE_KEY.search(k)
            and k not in _PATH_KEYS and _FILE_PATH.match(v)]


_PATCH_LINE = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+)$|^\+\+\+ (?:b/)?(\S+)|^--- (?:a/)?(\S+)", re.MULTILINE)


def patch_writes(patch: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    minus = None
    for m in _PATCH_LINE.finditer(patch):
        if m.group(1):
            found.append((m.group(2).strip(), {"Add": "created", "Update": "edited", "Delete": "deleted"}[m.group(1)]))
        elif m.group(4):
            minus = m.group(4)
        elif m.group(3):
            if m.group(3) == "/dev/null":
                if minus:
                    found.append((minus, "deleted"))
            else:
                found.append((m.group(3), "created" if minus == "/dev/null" else "edited"))
    return found


_WRITE_VERB = re.compile(r"\b(?:rm|unlink|git|mv|cp|touch|mkdir|sed|tee)\b")
_SEGMENTS = re.compile(r"&&|\|\||;|\n|\|")
_REDIRECT = re.compile(r"(?<![<>&\d=-])>>?\s*([^\s;&|<>]+)")


def shell_writes(command: str) -> list[tuple[str, str]]:
    """(path, what was done) for the files a shell command writes, moves or deletes."""
    found: list[tuple[str, str]] = []
    for m in _REDIRECT.finditer(command):
        target = m.group(1)
        if not target.startswith(("/dev/", "&")):
            found.append((target, "written"))
    body = command.split("<<", 1)[0] if "<<" in command else command
    for segment in _SEGMENTS.split(body) if _WRITE_VERB.search(body) else ():
        if not _WRITE_VERB.search(segment):
            continue  # no verb that writes: nothing for shlex (the slow part) to find
        try:
            words = shell_words(segment)
        except ValueError:
            words = segment.split()
        while words and ("=" in words[0] or words[0] in ("sudo", "env", "then", "do")):
            words = words[1:]
        if not words:
            continue
        head, rest = words[0], [w for w in words[1:] if not w.startswith("-")]
        if head == "rm" or head == "unlink" or (head == "git" and rest[:1] == ["rm"]):
            found.extend((p, "deleted") for p in (rest[1:] if head == "git" else rest))
        elif head in ("mv", "cp") and len(rest) >= 2:
            verb = "moved" if head == "mv" else "copied"
            found.append((rest[-1], f"{verb} from {' '.join(rest[:-1])}"))
            if head == "mv":
                found.extend((p, f"moved to {rest[-1]}") for p in rest[:-1])
        elif head == "touch" or head == "mkdir":
            found.extend((p, "created") for p in rest)
        elif head == "sed" and any(w.startswith("-i") for w in words[1:]) and len(rest) >= 2:
            found.append((rest[-1], "edited"))
        elif head == "tee":
            found.extend((p, "written") for p in rest)
        elif head == "git" and rest[:1] == ["mv"] and len(rest) >= 3:
            found.append((rest[-1], f"moved from {rest[1]}"))
    return [(p, a) for p, a in found if 0 < len(p) <= 300 and "$" not in p]


_WORD_STOP = re.compile(r"[ \t\r\n'\"\\#]")  # what ends a run of plain characters for shlex
_QUOTED_STOP = re.compile(r'["\\]')


def shell_words(text: str) -> list[str]:
    """``shlex.split(text, comments=True)``, the same words and the same ValueError, in linear time:
    shlex adds a word's characters to a string one at a time, which is quadratic (a command holding
    a 1M-character word took 12 s to read). Plain runs and quoted parts are taken whole here."""
    words: list[str] = []
    word: list[str] = []
    quoted = False  # a word with quotes is a word even when empty ("")
    at, end = 0, len(text)
    while at < end:
        stop = _WORD_STOP.search(text, at)
        cut = stop.start() if stop else end
        if cut > at:
            word.append(text[at:cut])
        if stop is None:
            break
        char, at = text[cut], cut + 1
        if char in " \t\r\n#":
            if word or quoted:
                words.append("".join(word))
                word, quoted = [], False
            if char == "#":  # a comment, to the end of the line
                newline = text.find("\n", at)
                at = newline + 1 if newline >= 0 else end
        elif char == "'":
            close = text.find("'", at)
            if close < 0:
                raise ValueError("No closing quotation")
            word.append(text[at:close])
            quoted, at = True, close + 1
        elif char == '"':
            quoted, at = True, _double_quoted(text, at, word)
        else:  # a backslash outside quotes keeps the next character, whatever it is
            if at >= end:
                raise ValueError("No escaped character")
            word.append(text[at])
            at += 1
    if word or quoted:
        words.append("".join(word))
    return words


def _double_quoted(text: str, at: int, word: list[str]) -> int:
    """Adds the inside of a double-quoted part starting at ``at`` to ``word``; where it ends. Inside
    double quotes a backslash escapes only a quote or a backslash (as shlex reads them)."""
    while True:
        stop = _QUOTED_STOP.search(text, at)
        if stop is None:
            raise ValueError("No closing quotation")
        cut = stop.start()
        word.append(text[at:cut])
        if text[cut] == '"':
            return cut + 1
        if cut + 1 >= len(text):
            raise ValueError("No escaped character")
        escaped = text[cut + 1]
        word.append(escaped if escaped in '"\\' else "\\" + escaped)
        at = cut + 2


def _reads_code(args: dict[str, object]) -> bool:
    """Whether a call reads a source file (its lines are code, not what a run found)."""
    path = next((v for k in _PATH_KEYS if isinstance(v := args.get(k), str)), "")
    return bool(re.search(r"\.(?:py|go|rs|ts|tsx|js|jsx|java|kt|rb|c|h|cc|cpp|cs|php|swift|scala|sql|sh)$", path))


def is_read(call: ToolCall | None, command: str | None) -> bool:
    if call is None:
        return False
    if command is not None:
        first = command.split(None, 1)[0] if command.split() else ""
        return first in _READ_COMMANDS or command.startswith(("git show", "git diff", "git log", "sed -n"))
    kind = kinds(call.name)
    return "read" in kind and not ("write" in kind or "edit" in kind)

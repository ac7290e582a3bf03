"""What a tool printed: whether the run failed (a flagged error, a non-zero exit, a traceback), the line
that says what failed, and what it found (failing tests of any runner, cause lines, the settings of a file
that was read, a computation's results), never from file contents that were only read."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Callable

from context_compactor.messages import ToolCall, View

from .calls import _PATH_KEYS, _reads_code, arguments, is_read, shell_command
from .identifiers import CLIP_MARK, clip, ends, flat_lines, head_of, identifier_items, one_line, scanned, tail_of
from .ledger import ASKED, Item
from .ledger.items import VARYING as _VARYING
from .ledger.segments import REVIEW_COMMENT
from .ledger.corrections import evidence_words


# A command failed: a non-zero exit, a traceback, a failed test, an error line. Cheap substring checks
# first; the regex reads only the tail, where a command's verdict is.
_FAILED_WORDS = ("Traceback (most recent call last)", "\nFAILED ", "npm ERR!", "command not found", "Segmentation fault",
                 "Permission denied", "No such file or directory", "fatal:", "panic:", "--- FAIL:", "panicked at",
                 "DATA RACE", "\nFAIL\t", "error[E", "Tests failed", "test result: FAILED", " [Error/",
                 "The following tests FAILED:", "** BUILD FAILED **",  # (CTest's and xcodebuild's verdicts)
                 "* What went wrong:\n", "FATAL EXCEPTION: ", "finished with errors",  # (Gradle's, Android's, fastlane's)
                 "Failed!  - Failed: ",  # (dotnet test's)
                 "\n[  FAILED  ] ",  # (GoogleTest's, for each failed test)
                 "Received exception from server",  # (ClickHouse's client, over "Code: 47. DB::Exception: ...")
                 "\n[INFO] BUILD FAILURE", "\n[ERROR] BUILD FAILURE",  # (Maven's verdict, on a line of its own)
                 "\nSCRIPT ERROR: ", "\nSHADER ERROR: ",  # (Godot's, printed as the game runs on: not only in the tail)
                 "+ CategoryInfo ", "FullyQualifiedErrorId", "\n[-] ",  # (PowerShell's error record; Pester's failed test)
                 ": CRITICAL/", "] [CRITICAL] ")  # (Celery's level/process, gunicorn's bracketed level)
_FAILED_TAIL = re.compile(
    r"\b(?:exit(?:ed)?(?: with)? (?:code|status)|exit_code|returncode|return code|(?<=\()exit)[\s:=]+[1-9]|^(?:\u2502 )?ERROR[:! ]|"
    r"^(?:\u2502 )?error(?:\[\w+\])?:|\bfailed with\b|(?<![\w=])(?!0+ )\d+ failed\b(?!=)", re.IGNORECASE | re.MULTILINE)
# An error said by its code, an API's or a service's ("ERR_PERIOD_LOCKED: posting period 2025-03 is closed ...",
# "VALIDATION_ERROR: account 6290-00 requires a department ...", gRPC's "PERMISSION_DENIED: ..."): a code in capitals
# with an underscore that says it failed, then a colon and what it says.
_CODED_ERROR = re.compile(r"^[ \t]*(?=[A-Z0-9_]*(?:ERR|FAIL|INVALID|DENIED|LOCKED|EXCEEDED|NOT_FOUND|FORBIDDEN|"
                          r"UNAUTHORI[SZ]ED|TIMEOUT|TIMED_OUT|CONFLICT|REJECTED|MISSING|UNBALANCED|UNAVAILABLE|EXHAUSTED|"
                          r"ABORTED|PRECONDITION|MISMATCH|EXPIRED|UNKNOWN|ILLEGAL|CANNOT|UNABLE))"
                          # (what it says is words, three or more: "FAIL_FAST: true" is a setting's line)
                          r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+:[ \t]+\S+(?:[ \t]+\S+){2,}[ \t]*$", re.MULTILINE)
# A compiler's diagnostic by its code, anywhere on its line ("mandateService.ts(54,18): error TS2345: ...", "error CS0103:").
_CODED_DIAGNOSTIC = re.compile(r"\berror [A-Z]{1,4}\d{2,5}:")
_EXIT_ZERO = re.compile(r"\b(?:exit(?:ed)?(?: with)? (?:code|status)|exit_code|returncode|(?<=\()exit)[\s:=]+0\b", re.IGNORECASE)
TAIL_CHARS = 1500
SHORT_OUTPUT = 300  # a command's output this short is its answer, read for every kind of id
ACTION_JSON = 1000  # a JSON object this short is a call's answer (a log of JSON lines is longer or many objects)
# A JSON field that names what a call made or found: an id, a reference, a code, a confirmation or tracking
# number, with a value that has a digit.
_ID_FIELD = re.compile(r"\"(\w*(?:_id|Id|ID|reference|_ref|confirmation|tracking|booking|pnr|code)(?:_?(?:number|no|code))?)\"\s*:\s*"
                       r"\"((?=[^\"\s]*\d)[^\"\s]{4,60})\"")
# The same said in words ("Reservation confirmed. Code OT-PUYV-640.", "Booking reference (PNR): A2C4E3",
# "Submitted batch job 6780164", "tracking number 1Z999AA10123456784"): a label, then a value with a digit.
_ID_LABEL = re.compile(r"(?<![=\w.-])(?:confirmation|reservation|booking|tracking|order|ticket|case|batch job|job|reference|ref|"
                       r"pnr|code)(?: (?:number|no\.?|code|id|reference))?(?: \([A-Za-z ]{2,12}\))?(?:[ \t]*[:#][ \t]*|[ \t]+(?:is[ \t]+)?#?)"
                       r"(?!\d{4}-\d\d-\d\d)((?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{3,40})\b(?![.,:/]\d)", re.IGNORECASE)
_ID_LABEL_WORDS = ("confirm", "reserv", "booking", "tracking", "order", "ticket", "case", "job", "ref", "pnr", "code")
ID_CHARS = 600  # a command's output is read for ids in its first and last this many characters


def _has_any(low: str, words: tuple[str, ...]) -> bool:
    """Whether lower-cased ``low`` holds one of ``words`` (a regex runs only on a text that may match it)."""
    return any(word in low for word in words)


def failed_run(text: str) -> bool:
    """Whether a command's output says it failed (an explicit exit code 0 says it did not)."""
    tail = text[-TAIL_CHARS:]
    if not tail.isascii():  # case-blind matching of other letters (ı, ſ) and digits: the regex decides
        return failed_run_by_regex(text)
    low = tail.lower()
    if _at(_EXIT_ZERO_AT, tail, low, ("exit", "return")):
        return "Traceback (most recent call last)" in text or "\nFAILED " in text
    if _ERROR_HEAD.match(text):
        return True
    if any(map(text.__contains__, _FAILED_WORDS)):  # C-level: no generator frame per word
        return True
    if tail.rstrip().endswith("\nFAIL"):  # `go test ./...`'s last word when a package failed (its "--- FAIL" may be far up)
        return True
    if "_" in tail and _CODED_ERROR.search(tail):
        return True
    if "[!] " in text and _BANG_ERROR.search(text):
        return True
    if "\tat " in tail and _ends_in_java_trace(tail):
        return True
    if "error " in tail and _CODED_DIAGNOSTIC.search(tail):
        return True
    if "=" in tail and _COUNTED_FIELD.search(tail):
        return True
    if "\n< HTTP/" in text and _curl_failure(text):
        return True
    if ".go:" in text and _GO_DIAGNOSTIC.search(text):
        return True
    if "Msg " in text and _MSSQL.search(text):
        return True
    return (_at(_FAILED_CODE_AT, tail, low, ("exit", "return")) or _at(_ERROR_AT, tail, low, ("error",), line=True)
            or _at(_FAILED_WITH_AT, tail, low, ("failed with",)) or _counted_failed(tail, low))


# What fastlane and CocoaPods mark with "[!]" and say failed ("[!] CocoaPods could not find compatible versions for pod
# "TrustKit":", "[!] ERROR ITMS-90683: ..."); not their "[!] Automatically assigning platform ...", a warning, nor "[!] Error
# uploading ipa file, for more information see above", which points back at the line that says what failed.
_BANG_ERROR = re.compile(r"^\[!\] (?![^\n]*\bsee above\b)[^\n]*(?:\b(?:could not|couldn'?t|unable to|error|failed|invalid|"
                         r"not found|no such|missing)\b|\bERROR\b)[^\n]*$", re.MULTILINE | re.IGNORECASE)
# A run's summary that counts its errors or failures as fields in capitals (dbt's "Done. PASS=1 WARN=0 ERROR=3 SKIP=0
# TOTAL=4"); not a log record's lower-case fields ("processed=386105 failed=3").
_COUNTED_FIELD = re.compile(r"\b(?:ERROR|ERRORS|FAIL|FAILED)=[1-9]")
# Android's crash: the exception's line under "FATAL EXCEPTION: main" and the process's line, its logcat prefix kept.
_ANDROID_CRASH = re.compile(r"FATAL EXCEPTION: [^\n]*\n(?:[^\n]*\bProcess: [^\n]*\n)?([^\n]*\S[^\n]*)")


# What `curl -v` received: a status of 400 or more ("< HTTP/2 422"); what the server said is the body under its headers.
_CURL_STATUS = re.compile(r"^< HTTP/[\d.]+ [45]\d\d\b", re.MULTILINE)
# The Go toolchain's diagnostics under the package they are about ("# github.com/acme/shipping/internal/quote", then
# "internal/quote/fallback.go:168:35: undefined: quote.OptionByPrazo"; `go vet` the same): the first says what failed.
_GO_DIAGNOSTIC = re.compile(r"^# [\w.~/-]+\n(?:vet: )?((?:\.{0,2}/)?[\w./-]+\.go:\d+:\d+: \S[^\n]*)", re.MULTILINE)


def _curl_failure(text: str) -> str:
    """What an API said with an error status that `curl -v` printed: the JSON body under its headers ("{"codigo":
    "539", "mensagem": "Rejeição 539: ..."}"); "" for none, or for a page's status alone (a probe of a site that
    answers 404 or 403 is what the probe found, not a call that failed)."""
    status = _CURL_STATUS.search(text) if "\n< HTTP/" in text else None
    if status is None:
        return ""
    for raw in text[status.end():status.end() + 4000].split("\n")[1:]:
        row = raw.strip()
        if row and row[0] not in "<>*":
            return row if row.startswith(("{", "[")) and len(row) > 2 else ""
    return ""


# Kotlin's compiler, as Gradle prints it ("e: file:///home/x/src/main/kotlin/TaskCard.kt:91:9 Unresolved reference
# 'deferredFc25'.", the older "e: /home/x/TaskCard.kt: (91, 9): Unresolved reference: deferredFc25"): what a compile
# task failed with, where Gradle's "* What went wrong:" only names the task.
_KOTLIN_NEEDS = ("e: file:", "\ne: /", "\ne: C:")
_KOTLIN_ERROR = re.compile(r"^e: (?:file:///?|/|[A-Z]:[\\/])\S+\.kts?(?::\d+:\d+|: \(\d+, \d+\)):? .+$", re.MULTILINE)


def _tool_verdict(text: str) -> str:
    """What a build or device tool says failed under its own heading or mark: Gradle's line under "* What went
    wrong:", Android's exception under "FATAL EXCEPTION", fastlane's or CocoaPods' first "[!]" line that says what
    failed (:data:`_BANG_ERROR`), an API's answer under an error status in `curl -v` (:func:`_curl_failure`), the Go
    toolchain's first diagnostic (:data:`_GO_DIAGNOSTIC`); "" for none. Each is read only where its mark is."""
    at = text.find("* What went wrong:\n")
    if at >= 0:
        line = next((row.strip() for row in text[at + 19:at + 2000].split("\n") if row.strip()), "")
        compiled = (_KOTLIN_ERROR.search(text) if "compile" in line and any(map(text.__contains__, _KOTLIN_NEEDS))
                    else None)  # (only for a compile task: not an earlier run's error above another task's failure)
        if compiled:
            return compiled.group(0).strip()
        if line:
            return line
    for mark, read in _VERDICTS:
        if mark in text:
            said = read(text)
            if said:
                return said
    return ""


def _matched(pattern: re.Pattern[str], group: int) -> Callable[[str], str]:
    """A reader of ``pattern``'s first match in a text (its ``group``, stripped; "" for none)."""
    def read(text: str) -> str:
        m = pattern.search(text)
        return m.group(group).strip() if m else ""
    return read


# (the mark a verdict needs in the text, its reader), in the order they are tried
_VERDICTS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("FATAL EXCEPTION: ", _matched(_ANDROID_CRASH, 1)),
    ("[!] ", _matched(_BANG_ERROR, 0)),
    ("\n< HTTP/", _curl_failure),
    (".go:", _matched(_GO_DIAGNOSTIC, 1)),
)


# An output whose first line says the call failed: an exception's name ("StorageError: quota exceeded",
# "SMTPRecipientsRefused: 550 ..."), "<what> failed:", or an HTTP error status ("403 Forbidden").
_ERROR_HEAD = re.compile(r"^\s*(?:\{\s*\"(?:error|errors)\"\s*:\s*[{\[\"]|[A-Z][\w.]*(?:Error|Exception|Refused|Fault|Denied)\b\s*:|(?:[\w-]+ ){0,3}failed\s*[:(]|"
                         r"[A-Z][\w-]*(?: [\w-]+)? error\s*:|"  # "Query error: Unrecognized name: skip_cnt at [42:28]", "Syntax error: ..."
                         r"(?:HTTP/[\d.]+ |(?:status|error)[ :=]+)?[45]\d\d (?:[A-Z][a-z]+)(?: [A-Z][a-z]+){0,3}\b|"
                         r"[45]\d\d[ -][45]\.\d{1,3}\.\d{1,3} )")  # a mail server's refusal ("550 5.1.1 recipient rejected")


_FRAME = re.compile(r"^\s*File \"[^\"\n]+\", line \d+|^Traceback \(most recent call last\):|^\s+at [\w.$<>]+\(|^goroutine \d+ \[",
                    re.MULTILINE)
_RAISED = re.compile(r"^(?:[a-z_]\w*\.)+[A-Z]\w+: \S")  # a raised class by its module's path ("triton.runtime.errors.OutOfResources: ...")
CRASH_LINES = 2  # a log that ends in a crash has the error on one of its last this many lines


def _ends_in_java_trace(tail: str) -> bool:
    """Whether a command's output ends in a JVM's stack trace under the exception it died of (FastQC's
    "uk.ac.babraham.FastQC.Sequence.SequenceFormatException: ...", then "\tat ...(FastQFile.java:179)" to the end)."""
    rows = [row for row in tail.rstrip().split("\n")[-JAVA_TAIL_ROWS:] if row.strip()]
    if not rows or not _JAVA_AT.match(rows[-1]):
        return False
    return any(_EXCEPTION_LINE.match(row.strip()) for row in rows)


JAVA_TAIL_ROWS = 40
_JAVA_AT = re.compile(r"^\s+at [\w$.<>/]+\([\w$.]+\.java:\d+\)\s*$")


def crash_line(text: str) -> str:
    """What a log that was read died of: the error line among its last :data:`CRASH_LINES` lines, under a
    stack trace's frames ("KeyError: 'model.layers.49...'" after ``File "...", line 535``); "" for a log that
    goes on after its errors, or a file whose content is code."""
    tail = text[-TAIL_CHARS:]
    if not _FRAME.search(tail):
        return ""
    last = [line.strip() for line in tail.splitlines() if line.strip()][-CRASH_LINES:]
    # the first error line of the two: what was raised, before a library's detail printed under it
    # ("torch.distributed.DistBackendError: NCCL error in: ...", then "ncclUnhandledCudaError: ...")
    line = next((x for x in last if error_line(x, named_only=True)), "") or next((x for x in last if _RAISED.match(x)), "")
    line = error_line(line, named_only=True) or line
    return line if line and not _FRAME.match(line) else ""


def output_failed(text: str, reads: bool) -> bool:
    """Whether a tool's output (scanned) says its call failed: a command's by :func:`failed_run`, a read's
    only when it is no content but a failure (:func:`failed_answer`; a file's "error" lines are data). The
    one rule for the ledger and the agent-loop behaviours alike."""
    return failed_answer(text) if reads else failed_run(text)


def failed_answer(text: str) -> bool:
    """Whether a read's output is no content but a failure: short, and its first line says it failed
    (a page that could not be fetched, a mailbox that refused). A file's content is read, not judged."""
    return len(text) <= SHORT_OUTPUT and bool(_ERROR_HEAD.match(text))


def failed_run_by_regex(text: str) -> bool:
    """:func:`failed_run` as two regexes over the tail: the definition (about 10x slower)."""
    tail = text[-TAIL_CHARS:]
    if _EXIT_ZERO.search(tail):
        return "Traceback (most recent call last)" in text or "\nFAILED " in text
    return (bool(_ERROR_HEAD.match(text)) or any(word in text for word in _FAILED_WORDS) or bool(_FAILED_TAIL.search(tail))
            or bool(_curl_failure(text)) or bool(_GO_DIAGNOSTIC.search(text))
            or bool(_BANG_ERROR.search(text)) or _ends_in_java_trace(tail) or bool(_MSSQL.search(text))
            or bool(_CODED_ERROR.search(tail)) or bool(_CODED_DIAGNOSTIC.search(tail)) or tail.rstrip().endswith("\nFAIL")
            or bool(_COUNTED_FIELD.search(tail)))


# The verdict regexes, each tried only where its first word stands (found by str.find on the lower-cased
# tail): Python's regex engine has no fast scan for a case-blind alternation, and a tail is 1,500 chars.
_CODE = r"(?:exit(?:ed)?(?: with)? (?:code|status)|exit_code|returncode|(?<=\()exit"  # "... is missing (exit 3)"
_EXIT_ZERO_AT = re.compile(_CODE + r")[\s:=]+0\b", re.IGNORECASE)
_FAILED_CODE_AT = re.compile(_CODE + r"|return code)[\s:=]+[1-9]", re.IGNORECASE)
_ERROR_AT = re.compile(r"error(?:[:! ]|\[\w+\]:)", re.IGNORECASE)  # (steamcmd's "ERROR! Failed to build depot ...")
_FAILED_WITH_AT = re.compile(r"failed with\b", re.IGNORECASE)
_FAILED_END = re.compile(r" failed\b(?!=)", re.IGNORECASE)


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _line_start(text: str, at: int) -> bool:
    """Whether ``at`` starts a line of ``text``, or a line of a box Terraform draws around a diagnostic ("\u2502 Error: ...")."""
    return text[at - 1] == "\n" or (text[at - 2:at] == "\u2502 " and (at == 2 or text[at - 3] == "\n"))


def _at(pattern: re.Pattern[str], text: str, low: str, words: tuple[str, ...], line: bool = False) -> bool:
    """Whether ``pattern`` matches where one of ``words`` starts a word (``line``: starts a line) in ``text``."""
    for word in words:
        at = low.find(word)
        while at >= 0:
            if (at == 0 or (_line_start(text, at) if line else not _word_char(text[at - 1]))) and pattern.match(text, at):
                return True
            at = low.find(word, at + 1)
    return False


def _counted_failed(text: str, low: str) -> bool:
    """``(?<![\\w=])(?!0+ )\\d+ failed\\b(?!=)``: a count of failures ("3 failed"; "0 failed" is a run that passed:
    cargo's "test result: ok. 10 passed; 0 failed")."""
    at = low.find(" failed")
    while at >= 0:
        start = at
        while start > 0 and text[start - 1].isdecimal():
            start -= 1
        # ("processed=386105 failed=3" is a log record's fields, no count of failures)
        if start < at and text[start:at].strip("0") and (start == 0 or not (_word_char(text[start - 1]) or text[start - 1] == "=")) \
                and _FAILED_END.match(text, at):
            return True
        at = low.find(" failed", at + 1)
    return False


_EXCEPTION_LINE = re.compile(r"^(?:E\s+)?((?:[\w.]+\.)?\w*(?:Error|Exception|Exit|Interrupt|Failure|Fault)\b:.*)$",
                             re.MULTILINE)
# A build's trailer: that it failed and how often, not what ("make: *** [html] Error 1", "build finished with
# problems, 1 error.", "Found 2 errors in 2 files", "1 error generated."); or where its log is ("npm ERR! A
# complete log of this run can be found in: ...", "See the full log at ... for details").
# A CI log's line prefix: `gh run view --log`'s job and step, a timestamp, an annotation ("web<TAB>Run pnpm test<TAB>
# 2025-06-12T16:12:11.9044300Z ##[error]Process completed with exit code 1.")
_CI_JOB_STEP = r"(?:[^\t\n]{1,80}\t[^\t\n]{1,200}\t)?"
_CI_STAMP = r"\d{4}-\d\d-\d\dT[\d:.]+Z\s+"
_CI_PREFIX = _CI_JOB_STEP + "(?:" + _CI_STAMP + r")?(?:##\[(?:error|warning)\]\s*)?"
_TRAILER = re.compile(_CI_PREFIX + r"(?:make(?:\[\d+\])?: \*\*\* |(?:npm ERR! )?a complete log of this run can be found in\b|"
                      r"(?:see|check) (?:the )?(?:full |complete )?logs? (?:at|in) \S+ for (?:more )?details\b|"
                      r"(?:build (?:finished|failed|succeeded) with (?:problems|errors?)|found)?[, ]*\d+ "
                      r"error(?:s|\(s\))?(?:\b|(?<=\)))(?: (?:in|generated|found)\b[^:]*)?\.?$|"  # (MSBuild's "1 Error(s)")
                      # that a command or a step exited badly, not why ("collect2: error: ld returned 1 exit status",
                      # "FATAL ERROR: command exited with status 1: /usr/bin/cmake ...", "Error: Process completed with
                      # exit code 1.", " ELIFECYCLE  Command failed with exit code 1.", "ninja: build stopped: ...")
                      r"collect2(?:\.exe)?: error: ld returned \d+ exit status|ninja: build stopped\b|"
                      # (xcodebuild's and CTest's verdicts and the lists under them: "** BUILD FAILED **", "The following
                      # build commands failed:", "Errors while running CTest")
                      r"\*\* [A-Z ]*FAILED \*\*|the following (?:build commands|tests) failed:|errors while running ctest\b|"
                      r"ld: symbol\(s\) not found for architecture \w+$|"
                      # (where to look next, not what failed: CTest's 'Use "--rerun-failed --output-on-failure" to re-run
                      # ...', "Output from these tests are in: ...", R's "Run `rlang::last_trace()` to see where the error
                      # occurred.")
                      r"use \"--rerun-failed\b|output from these tests are in:|run `rlang::last_trace\(\)`|"
                      # (dbt's, under its timestamp: "11:57:05  Completed with 1 errors, ...", "Done. PASS=3 ... ERROR=3 ...")
                      r"(?:\d\d:\d\d:\d\d\s+)?(?:completed with \d+ errors?\b|done\. pass=\d+ warn=\d+ error=\d+)|"
                      r"(?:(?:[\w !]{0,30}:\s*){1,2}|[A-Z]+\s+)?(?:the |linker )?(?:command|process|subcommand|script)\b[^\n]{0,80}?"
                      r"\b(?:exited|failed|returned|completed)\b[^\n]{0,30}?\b(?:exit )?(?:code|status)\b)", re.IGNORECASE)
# What a linker says failed ("region `RAM' overflowed by 3233 bytes", "undefined reference to `baro_init'"): the
# last one, which a build's trailers follow.
_LINKER = re.compile(r"^.*(?:region `[^'\n]+' overflowed by \d+ bytes|undefined reference to `[^'\n]+'|"
                     r"multiple definition of `[^'\n]+').*$", re.MULTILINE)
_LINKER_NEEDS = ("overflowed by ", "undefined reference to `", "multiple definition of `")
# A JSON key that opens an object or a list ('"error": {'): structure, not a message.
_JSON_OPENER = re.compile(r'^"?[\w.-]+"?\s*:\s*[{\[]?,?$')
SHORT_ERROR_CHARS = 240  # a failed output of a few lines up to this long is its own error line, whole
# What says a short answer failed, beside the error words ("JE rejected: debits ... != credits ...", "Query could not be
# parsed at 'sumarize' ...", "GatewayTimeout: ...").
_FAILURE_SAID = re.compile(r"\b(?:error|fatal|panic|failed|not found|denied|refused|rejected|invalid|conflict|timeout|"
                           r"timed out|could not|cannot|unable to|not allowed|forbidden)\b|ERR!", re.IGNORECASE)
_EXIT_LINE = re.compile(r"^(?:exit(?:ed)?(?: with)? (?:code|status)|exit_code|returncode)\b", re.IGNORECASE)
_FAILED_LINE = re.compile(r"^(FAILED .+)$", re.MULTILINE)
# What failed, said by other languages and tools: a Go panic, a Rust panic or compile error, TypeScript, ESLint,
# a Java exception; then a runner's verdict on one test (Go, Jest/Vitest, GoogleTest, TAP).
_SPECIFIC_ERROR = re.compile(r"^\s*(?:panic: .+|thread '[^'\n]+' panicked at .+|error\[E\d+\]: .+|.*\bTS\d{4}: .+|"
                             r"(?:Exception in thread|Caused by:) .+|\S+\.\w+:\d+:\d+: .+|.*\d+:\d+ +error +.+|"
                             r"WARNING: DATA RACE|fatal error: .+|ERROR: .+|\S+:\d+: (?:ERROR|error|SEVERE): .+|"
                             # (PowerShell's error record opens with its cmdlet: "Get-ADUser : Cannot find an object ...")
                             r"[A-Z][a-z]+-[A-Z][A-Za-z]+ : .+)$", re.MULTILINE)
# (on one line: what stands before the verdict is of its line; Unity's "test_units.c:405:test_vectors_83:FAIL: Expected
# 3680 Was 3683"; a harness's "[FAIL] sleep_current_uA   avg 23.81 uA > limit 6.0 uA"; Playwright's "✘  23 [chromium]
# › e2e/x.spec.ts:23:5 › ...", not docker compose's "✘ Container shop-api-1  Error"; Pester's "[-] Describe.It 60ms (56ms|4ms)")
_RUNNER_FAILURE = re.compile(r"^[^\S\n]*(?:.*[^\S\n])?(?:--- FAIL: .+|FAIL +\S+.*|(?<!\d )(?:✗|×|✕|✖|●) (?!\d+\s*$).+|✘[^\S\n]+[^\n]*›.+|\[  FAILED  \] .+|not ok \d+ .+|"
                             r"\[ ?FAIL(?:ED)? ?\][^\S\n]+\S.*|\[-\][^\S\n]+\S.*|Failure in: \S+.*)$|^[^\S\n]*\S+\.\w+:\d+:\w+:FAIL\b.*$",
                             re.MULTILINE)  # (pFUnit's "Failure in: suite.test")
# (not a table's size, "# A tibble: 3,986 × 7")
# Go's test prints what a failed test found on the lines after its "--- FAIL:", indented ("    frame_test.go:386: got
# 1390 frames, want 1406")
_GO_DETAIL = re.compile(r"\n[ \t]+(\w+_test\.go:\d+: \S[^\n]*)")
# The same, each part tried only where a text holds what it needs (str.find; exact: a part cannot match
# without it), since a line-anchored alternation with ".*" parts reads every line of an output several times.
_SPECIFIC_PARTS = (
    (("panic: ", "panicked at ", "error[E", "Exception in thread ", "Caused by: ", "WARNING: DATA RACE", "fatal error: ",
      "ERROR: "),
     re.compile(r"^\s*(?:panic: .+|thread '[^'\n]+' panicked at .+|error\[E\d+\]: .+|(?:Exception in thread|Caused by:) .+|"
                r"WARNING: DATA RACE|fatal error: .+|ERROR: .+)$", re.MULTILINE)),
    (("TS",), re.compile(r"^\s*.*\bTS\d{4}: .+$", re.MULTILINE)),
    ((" error ",), re.compile(r"^\s*.*\d+:\d+ +error +.+$", re.MULTILINE)),
    # a file and line, then the level ("install.md:260: ERROR: undefined label ...", mypy's "app.py:12: error: ...")
    ((": ERROR: ", ": error: ", ": SEVERE: "), re.compile(r"^\s*\S+:\d+: (?:ERROR|error|SEVERE): .+$", re.MULTILINE)),
    # MSBuild's ("scripts/world/FerryPlatform.cs(293,27): error CS1061: 'FerryPlatform' does not contain ...")
    (("): error ",), re.compile(r"^\s*\S.*\(\d+,\d+\): error [A-Z]{1,4}\d{2,5}: .+$", re.MULTILINE)),
    (("_",), _CODED_ERROR),  # an error said by its code ("ERR_PERIOD_LOCKED: posting period 2025-03 is closed ...")
    # Godot's ("SCRIPT ERROR: Invalid get index 'wick_charge' (on base: 'Nil').", "SHADER ERROR: Unknown identifier ...")
    (("SCRIPT ERROR: ", "SHADER ERROR: "), re.compile(r"^(?:SCRIPT|SHADER) ERROR: .+$", re.MULTILINE)),
    # PowerShell's error record, by the cmdlet it opens with ("Get-ADUser : Cannot find an object with identity: ...",
    # then "At line:1 char:1" and "+ CategoryInfo ...")
    (("+ CategoryInfo ",), re.compile(r"^[A-Z][a-z]+-[A-Z][A-Za-z]+ : .+$", re.MULTILINE)),
    # ClickHouse's, by its code ("Code: 241. DB::Exception: Memory limit (for query) exceeded: ..."), not the rows and
    # time it prints under it
    (("DB::Exception: ",), re.compile(r"^[ \t]*(?:Code: \d+\. )?DB::Exception: [^\n]+$", re.MULTILINE)),
    # a log's line its level marks in brackets, a process's prefix before it (ROS 2's "[ERROR] [1733724187.17]
    # [rosbag2_storage]: Could not open ...", "[gzserver-1] [ERROR] [...] [gazebo_ros2_control]: Error parsing URDF")
    (("[ERROR] ", "[FATAL] "), re.compile(r"^(?:\[[\w./-]{1,40}\] )?\[(?:ERROR|FATAL)\] (?:\[[^\]\n]{1,60}\]\s*)*:?\s*\S.*$",
                                       re.MULTILINE)),
    # a log's line a Python service marks CRITICAL: gunicorn's bracketed level ("[2026-05-09 20:26:57 +0000] [1]
    # [CRITICAL] WORKER TIMEOUT (pid:733)"), Celery's level/process ("[... 16:40:09,722: CRITICAL/MainProcess] ..."),
    # a container's name before it
    (("[CRITICAL] ", ": CRITICAL/"), re.compile(r"^.*(?:\] \[CRITICAL\]|: CRITICAL/[\w-]+\]) \S.*$", re.MULTILINE)),
    # CMake's ("CMake Error at CMakeLists.txt:37 (find_package):"), not colcon's "1 package failed: ..." after it
    (("CMake Error",), re.compile(r"^CMake Error\b.*$", re.MULTILINE)),
    (_KOTLIN_NEEDS, _KOTLIN_ERROR),
    # PHP's ("PHP Fatal error:  Uncaught Error: Call to undefined function ds_render_sweet_box() in ..."), not the
    # "There has been a critical error on this website." a WordPress page shows for it
    (("Fatal error: ", "Parse error: "), re.compile(r"^\s*(?:PHP )?(?:Fatal|Parse) error: .+$", re.MULTILINE)),
    # Ansible's, a task's failure on a host ('fatal: [sub-fnb-pc01]: FAILED! => {"changed": false, "msg": "Unable to
    # start service chronyd@7: ..."}'), not the recap's count under it ("failed=1")
    (("]: FAILED! => ", "]: UNREACHABLE! => "), re.compile(r"^fatal: \[[^\]\n]{1,80}\]: (?:FAILED|UNREACHABLE)! => .+$",
                                                      re.MULTILINE)),
)
_COLUMNS = re.compile(r":\d+:\d+: ")  # "main.go:12:5: undefined: x"
# (a warning or a note is not what failed: "uart_bridge.c:119:4: warning: unused variable 'crc'")
# (nor is a linter's "Sidebar.tsx:89:4: Prefer using an optional chain ... [Warning/@typescript-eslint/...]")
_COLUMNS_LINE = re.compile(r"^\s*\S+\.\w+:\d+:\d+: (?!warning:|note:)(?![^\n]*\[Warning/).+$", re.MULTILINE)
_RUNNER_NEEDS = ("FAIL", "✗", "✘", "×", "✕", "✖", "●", "not ok ", "[-] ", "Failure in: ")
_ERROR_WORDS = ("error", "Error", "ERROR", "fatal:", "ERR!", "panic:", "failed", "not found", "denied", "refused")
_ERROR_WORD = re.compile(r"\berror\b|\bError\b|\bERROR\b|fatal:|ERR!|panic:|failed|not found|denied|refused")


def _error_word_lines(text: str) -> list[str]:
    """:data:`_ERROR_WORD_LINE`'s lines of ``text``, in order: the lines that hold one of its words (found
    by str.find, then read by the word regex one line at a time)."""
    starts: set[int] = set()
    for word in _ERROR_WORDS:
        at = text.find(word)
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            starts.add(start)
            end = text.find("\n", at)
            if end < 0:
                break
            at = text.find(word, end)
    lines = []
    for start in sorted(starts):
        end = text.find("\n", start)
        line = text[start:end if end >= 0 else len(text)]
        if _ERROR_WORD.search(line):
            lines.append(line)
    return lines


def _specific_error(text: str) -> re.Match[str] | None:
    """:data:`_SPECIFIC_ERROR`'s first match in ``text``, its parts tried only where they can match; but where the
    same error comes again and again with another name in it (a game's "SCRIPT ERROR: Invalid get index 'fade_time'
    (on base: 'null instance')" on every run), the first one said once: what is new in this run."""
    found: re.Match[str] | None = None
    for needs, pattern in _SPECIFIC_PARTS:
        if any(map(text.__contains__, needs)):
            m = pattern.search(text)
            if m is not None and (found is None or m.start() < found.start()):
                found = m
                if pattern is not _CODED_ERROR:
                    found = _said_once(pattern, text) or m
    if _COLUMNS.search(text):
        m = _COLUMNS_LINE.search(text)
        if m is not None and (found is None or m.start() < found.start()):
            found = m
    return found


REPEATED_ERRORS = 3  # error lines of one kind in an output from which the one said once is told apart
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")


def _error_shape(line: str) -> str:
    """An error line's shape: its numbers and the first name it quotes masked (what the same error says of another
    thing: "Invalid get index '#' (on base: 'null instance')")."""
    return _DIGITS.sub("#", _QUOTED.sub("'#'", line, count=1))


def _said_once(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first of ``pattern``'s matches whose shape (:func:`_error_shape`) no other match has, when some shape
    comes more than once; else None."""
    matches = list(itertools.islice(pattern.finditer(text), 64))
    if len(matches) < REPEATED_ERRORS:
        return None
    shapes = Counter(_error_shape(m.group(0)) for m in matches)
    if len(shapes) < 2 or max(shapes.values()) < 2:
        return None
    return next((m for m in matches if shapes[_error_shape(m.group(0))] == 1), None)


WIDE = 32_000  # a failed output is read this far from each end for what failed (errors sit mid-output too)
_ERROR_WORD_LINE = re.compile(
    r"^(.*(?:\berror\b|\bError\b|\bERROR\b|fatal:|ERR!|panic:|failed|not found|denied|refused).*)$", re.MULTILINE)
# Our own marks in a result a projection stubbed, folded or cut: what they say is ours, not the tool's.
_OUR_MARKS = re.compile(r"^\[(?:failed call folded|tool result archived|\.\.\. [\d,]+ characters cut) by context-compactor[^\n]*$\n?",
                        re.MULTILINE)


def _labelled_ids(text: str, name: str, index: int, named: set[str], fields: bool = False) -> list[Item]:
    """The ids ``text`` labels as what was made or found ("Reservation confirmed. Code OT-PUYV-640.",
    "Confirmation code: TKT-MNS-40952"), each with the sentence that says it, on its line; not those in ``named``.
    ``fields``: only a line that is the label and its id (a mail's "Tracking number: 1Z...", not "our ref 2023-0125.msg"
    in a list of documents)."""
    if not _has_any(text.lower(), _ID_LABEL_WORDS):
        return []
    found: list[Item] = []
    for m in itertools.islice(_ID_LABEL.finditer(text), 3):
        line_end = text.find("\n", m.end())
        if fields and (text[text.rfind("\n", 0, m.start()) + 1:m.start()].strip()
                       or text[m.end():line_end if line_end >= 0 else None].strip(" .\t\r")):
            continue
        if m.group(1) not in named and m.group(1).upper() == m.group(1):  # (a name has no lower case letter)
            dot = text.rfind(". ", 0, m.start())
            start = max(text.rfind("\n", 0, m.start()) + 1, dot + 2 if dot >= 0 else 0)
            ends_at = [e for e in (text.find("\n", m.end()), text.find(". ", m.end())) if e >= 0]
            said = text[start:min(ends_at) if ends_at else None].strip()
            found.append(Item("identifier", m.group(1), f"{clip(said, 160)} ({name})", index))
            named.add(m.group(1))
    return found


def output_key(call: ToolCall | None, tool_name: str | None, command: str | None = "") -> tuple[str, str]:
    """What a tool's result is keyed by in the ledger (its tool and command or arguments: the same call's later
    success resolves its error), and how an error line names where it came from ("(`pytest -q`)", "(ros2)").
    ``command``: the call's shell command when known already ("": not yet read)."""
    name = one_line(call.name if call else (tool_name or "tool"))
    if command == "":
        command = shell_command(call, arguments(call.arguments)) if call else None
    key = f"{name} {command if command is not None else (call.arguments if call else '')}"[:400]
    return key, f" (`{clip(command, 80)}`)" if command else f" ({name})"


def tool_items(view: View, call: ToolCall | None, index: int, failed: bool | None = None,
               asked: frozenset[str] = frozenset()) -> list[Item]:
    """What a tool's result says: what failed, what a command made, what it found. ``asked``: the words of
    the user's request the call answers (see :func:`asked_words`), which name the line that answers it."""
    name = one_line(call.name if call else (view.tool_name or "tool"))
    args = arguments(call.arguments) if call else {}
    command = shell_command(call, args) if call else None
    reads = is_read(call, command)
    raw = _OUR_MARKS.sub("", view.text) if "by context-compactor" in view.text else view.text
    text = scanned(raw)
    if failed is None:
        failed = view.is_error or output_failed(text, reads)
    key, where = output_key(call, view.tool_name, command)
    items: list[Item] = []
    line = ""
    if failed:
        wide = ends(raw, WIDE, WIDE)
        line = error_line(wide)
    elif reads:  # a log read whose end is a crash (`tail -n 60 logs/slurm-4143800.out`): what the job died of
        line = crash_line(text)
    if line:
        items.append(Item("error", f"{key}\n{line}", clip(_stamped(wide, line) if failed else line, 400) + where, index))
    elif not reads and not failed:  # a failure no line says is still no success
        items.append(Item("success", key, "", index))
    if not reads:  # ids a command printed sit in its first or last lines
        head_tail = ends(text, ID_CHARS, ID_CHARS)
        # A short output is an answer (a hash, an id): read like prose; a long one for strong ids only, kept
        # when prose or a later call names them.
        long = len(text) > SHORT_OUTPUT
        found = identifier_items(head_tail, index, strong_only=long, weak=long)[:6]
        if long:  # a command's news is at its end: the strong ids of its last lines are its answer
            verdict = _last_lines(text)
            found = [i._replace(weak=False) if i.key in verdict else i for i in found]
        if not failed and len(text) <= ACTION_JSON and text.lstrip().startswith("{"):
            # what an action made, as its JSON answer's field says ("order_id": "390-..."); not a log's lines
            named = {i.key for i in found}
            found += [Item("identifier", m.group(2), clip(m.group(0), 160), index)
                      for m in itertools.islice(_ID_FIELD.finditer(head_tail), 3) if m.group(2) not in named]
        elif not failed:
            found += _labelled_ids(head_tail, name, index, {i.key for i in found})
        items.extend(found)
    # A read that names no file (a search, a lookup, a fetched page) answers with its last line as a
    # computation does ("cheapest: EUR 161.51 direct"); a file's last line is only where the file ends.
    answers = reads and command is None and not any(isinstance(args.get(k), str) for k in _PATH_KEYS)
    if answers and not failed:  # what a mail or a lookup labels at its start ("Confirmation code: TKT-MNS-40952")
        items.extend(_labelled_ids(head_of(text, ID_CHARS), name, index, set(), fields=True))
    items.extend(finding_items(raw, index, reads, line, _reads_code(args), answers=answers))
    if not reads and not failed and call is not None and "print" in call.arguments:
        # what the code asked to be printed, in its own words ("warehouse {wh:,} vs finance {fin:,}" printed
        # "warehouse 55,437 vs finance 55,076" under a library's warnings and a table): the computation's result
        keys = {i.key for i in items}
        items.extend(Item("finding", key, clip(printed, 200), index) for printed in _printed_lines(call.arguments, text)
                     if (key := printed.lower()[:80]) not in keys)
    if asked:
        answer = answer_line(raw, call, asked)
        # Room last, unless the agent's words name it (see ledger.merge); a finding already is one.
        if answer and answer != line and all(i.text != answer or i.weak for i in items):
            items = [i for i in items if i.text != answer] + [Item("finding", ASKED + answer.lower()[:200], answer, index, weak=True)]
        elif answer:  # a finding already ("matched body: Your refund of EUR 115.14 ..."): it ranks as one named
            items = [i._replace(rank=max(i.rank, 1)) if i.text == answer and i.section == "finding" else i for i in items]
    return items


# A print of a string literal in a call's code (Python's print(f"..."), as a JSON argument escapes it or not).
_PRINT = re.compile(r"(?:(?<![\w.])|(?<=\\n))print\(\s*[fr]?(\\?[\"'])((?:(?!\1).){3,120}?)\1")  # (after a JSON "\n" too)
_FIELD_OF = re.compile(r"\{[^{}]*\}")
PRINTED_LETTERS = 6  # a template's own words must hold this many letters to name the line it prints ("{k}: {v}" names none)


def _printed_lines(code: str, text: str) -> list[str]:
    """The lines of ``text`` (a call's output) that the call's code printed with words of its own, at most two."""
    out: list[str] = []
    for m in itertools.islice(_PRINT.finditer(code[:CALL_CHARS * 4]), 4):
        parts = [p for p in _FIELD_OF.split(m.group(2).replace("\\n", " ")) if p.strip()]
        if sum(c.isalpha() for p in parts for c in p) < PRINTED_LETTERS or "{" not in m.group(2):
            continue  # a fixed message ("print('done')") is no result, nor a template of no words
        at = text.find(parts[0].strip())
        pattern = re.compile(r"(?m)^[ \t]*" + r".*?".join(re.escape(p.strip()) for p in parts) + r".*$")
        found = pattern.search(text, max(0, text.rfind("\n", 0, at))) if at >= 0 else None
        if found and len(found.group(0).strip()) <= 200 and found.group(0).strip() not in out:
            out.append(found.group(0).strip())
        if len(out) >= 2:
            break
    return out


def answer_line(text: str, call: ToolCall | None, asked: frozenset[str]) -> str:
    """The line of a call's output that answers the question whose words are ``asked`` (see :func:`asked_line`),
    on one line and clipped; a name the call carries is in its output because the call asked for it, and
    names nothing."""
    if asked and call is not None:
        asked = asked - asked_words(" ".join(_CALL_NAME.findall(call.arguments[:CALL_CHARS])))
    return clip(asked_line(text, asked), 240) if asked else ""


def asked_words(request: str) -> frozenset[str]:
    """The words and numbers of a user's request that name what its answer is about ("is the pharmacy open
    sunday", "how much did dedup remove"), stemmed one step further than :func:`evidence_words` so that
    "remove" and "removed", "charge" and "charged" meet."""
    return frozenset(w if w[0].isdigit() else w.rstrip("e") for w in evidence_words(request))


_NUMBER = re.compile(r"(?<![\w.])\d")  # a number of its own, not a name's part ("sessions_7d", "v2")
_RECORD = re.compile(r"\W{0,3}(?:\d{4}-\d\d-\d\d|[A-Z][a-z]{2} +\d{1,2} \d\d:|\d\d:\d\d:\d\d)|\{\"(?:ts|time|timestamp|level|@timestamp)\"")
_ASKED_FIELD = re.compile(r"^[\"']?([A-Za-z][\w .-]{1,40}?)[\"']?\s*[:=]\s*[\"']?[\w./:@-]*\d")
CALL_CHARS = 1000  # a call's arguments are read this far for the names its output holds because it asked
# A name in a call's arguments: a path, or a word with a digit ("configs/runs/7b-parallel-lr8.yaml", "#477931"),
# not a plain word (the field a lookup asks for, "tenant", is what names the line that answers).
_CALL_NAME = re.compile(r"[\w.-]*\d[\w.-]*|[\w.-]+/[\w./-]+")
ASKED_LINE = 300  # a line of an output longer than this (a sentence of a paragraph, too) answers no question
ASKED_RARE = 2  # an asked word on more lines of an output than this names none of them (a search's own pattern)


def asked_line(text: str, asked: frozenset[str]) -> str:
    """The line of a tool's output that answers the user's request: the one with a number of its own that holds the
    most of its words that are on at most :data:`ASKED_RARE` lines ("Sunday 9:30-13:00 (Notdienst)" for
    "is the pharmacy open sunday", "removed: 2,990,799 docs" for "how much did dedup remove"); "" if none.
    Found by str.find on the lower-cased text, so only the lines that may hold an asked word are read."""
    head = head_of(text, READ_CHARS)
    low = head.lower()
    if len(low) != len(head):
        return ""  # lower-casing moved positions (a few non-ASCII letters): no line is read by its offsets
    lines: dict[int, set[str]] = {}  # line start -> asked words that may be on it
    for word in asked:
        starts: set[int] = set()
        at = low.find(word)
        while at >= 0 and len(starts) <= ASKED_RARE:
            starts.add(low.rfind("\n", 0, at) + 1)
            end = low.find("\n", at)
            at = low.find(word, end) if end >= 0 else -1
        if len(starts) <= ASKED_RARE:
            for start in starts:
                lines.setdefault(start, set()).add(word)
    # A search hit's label ("[Supplier agreement Acme Logistics.pdf, p. 7, score 0.97]") names what the passage
    # under it is from: its asked words are the passage's too ("what are the payment terms in the Acme Logistics
    # contract?" is answered by "7.2 The Customer shall make payment within 42 days ...").
    under: dict[int, set[str]] = {}
    for start in [s for s in lines if head[s:s + 1] == "["]:
        end = head.find("\n", start)
        if end >= 0 and head[start:end].rstrip().endswith("]"):
            below = end + 1
            while below < len(head) and head[below] == "\n":
                below += 1
            if below < len(head):
                under.setdefault(below, set()).update(lines[start])
                lines.setdefault(below, set()).update(lines[start])
    best, answer = 0, ""
    for start in sorted(lines):
        end = head.find("\n", start)
        line = head[start:end if end >= 0 else len(head)].strip()
        if ". " in line:  # a paragraph: the sentence with the asked word answers, if any does
            line = next((s for s in _SENTENCE_END.split(line) if lines[start] & asked_words(s)), "") or (
                next((s for s in _SENTENCE_END.split(line) if asked & asked_words(s)), "") if start in under else "")
        if len(line) > ASKED_LINE or _RECORD.match(line) or line.count("=") >= 3 or (line[:1] + line[-1:] == "[]"):
            continue  # a log's record answers no question (its news is read as a cause or an error), nor a
            # search hit's label ("[Supplier agreement Acme Logistics.pdf, p. 8, score 0.97]")
        field = _ASKED_FIELD.match(line)  # the field asked for, its value a name with a digit ("tenant": "tnt_ap1_...")
        if not (_NUMBER.search(line) or (field and lines[start] & asked_words(field.group(1)))):
            continue
        shared = len(lines[start] & (asked_words(line) | under.get(start, set())))
        if shared > best or (shared == best and shared and len(line) < len(answer)):  # an answer is short
            best, answer = shared, line
    return answer


# What a tool found: the failing tests a runner names (any language's runner), a line that gives a cause,
# and (from a file that was read) the settings it holds, kept when prose or a later call names them.
_GO_FAIL = re.compile(r"--- FAIL: (\S+)")
# How long a run of a test took, after its name ("ServiceStatus > opens ticket sheet 27ms", "... (4.2s)")
# and its number in the run, before the project's name ("12 [webkit] › e2e/x.spec.ts:20:6 › ...")
_RUN_TIME = re.compile(r"(?<=\S) (?:\(\d+(?:\.\d+)? ?m?s\)|\d+(?:\.\d+)?ms)$|^\d+ +(?=\[)")
_FIRST_BAD = re.compile(r"^\s*([0-9a-f]{7,40}) is the first bad commit\b.*$", re.MULTILINE)
_FAILING_TEST = re.compile(
    r"^[ \t]*(?:FAIL:? +(\S+(?:\s+>\s+[^\n]{1,120})?)|FAILED +(\S+)|(?:✗|×|✕|✖) +([^\n]{3,120})|✘ +([^\n]*›[^\n]{3,120})|"
    r"● ([^\n]{3,160})|test (\S+) \.\.\. FAILED|(\S+) \.\.\. (?:FAIL|ERROR)$|\[  FAILED  \] (\S+)|Failed (\S+) \[|"
    r"(\w+(?:\.\w+)+) (?:FAILED|failed)$|"
    # Gradle's test report ("ShelfLifeGuardTest > splitsLlpCards107() FAILED", a nested class's "A > B > c() FAILED"; not
    # a pipeline's "Build > Unit tests > Deploy staging FAILED")
    r"([\w$.]+(?: > [^\n>]{1,120}?){0,2} > [^\n>]*\w\([^)\n]*\)[^\n>]{0,40}?) FAILED$)", re.MULTILINE)
# A JSON list a CI or test API names by what failed ("failed_tests": [...], "failures": [...]), and its strings.
_FAILED_LIST = re.compile(r"\"(?:fail(?:ed|ing|ures?)(?:_?[Tt]ests?|_?[Ss]pecs?|_?[Cc]ases?)?)\"\s*:\s*\[([^\[\]]{3,2000})\]")
_JSON_STRING = re.compile(r"\"([^\"\n]{3,200})\"")
# A debugger's backtrace frame that has its source line (gdb's "#1  0x08029284 in co2_abc_update (dev=0x0803acc5) at
# app/src/co2.c:314", lldb's "frame #1: 0x0000000100003f50 app`parse_frame(buf=...) at frame.c:88:5"): the first
# one is where it stopped, in code someone wrote (the frames above it are a fault handler's, without a source).
_FRAME_IN_SOURCE = re.compile(r"^[ \t*]*(?:#\d+ +(?:0x[0-9a-fA-F]+ in )?|frame #\d+: 0x[0-9a-fA-F]+ \S*`)[\w:~<>.$]+ ?\("
                              r"[^\n]*\) at [\w./+-]+:\d+(?::\d+)?[ \t]*$", re.MULTILINE)
# A JavaScript stack's frame in the project's own code ("    at reconcileVoucher (apps/api/src/chargebacks/
# chargebackGuard.ts:140:35)"), not the runtime's ("at Date.toISOString (<anonymous>)", "node:internal/...") nor a
# dependency's (node_modules): the first one is where it broke.
_JS_FRAME = re.compile(r"^[ \t]+at (?:async )?[\w.$<>\[\] ]+ \((?!node:|internal/)(?![^()\n]*node_modules)[^()\s<>]+:\d+:\d+\)"
                       r"[ \t]*$", re.MULTILINE)
# A statement's time in a database's log ("LOG:  duration: 5823.836 ms  execute <unnamed>: SELECT ..."): of several,
# the slowest is the one that matters.
_STATEMENT_TIME = re.compile(r"^.*\bduration: (\d+(?:\.\d+)?) ms\b.*\S.*$", re.MULTILINE)
_CAUSE = re.compile(
    r"\b(?:root cause|caused by|because\b|due to\b|OOMKilled|out of memory|\bKilled\b|evicted|expired|deadlock|"
    r"timed out|timeout exceeded|deadline exceeded|connection refused|no space left|too many open files|"
    r"CrashLoopBackOff|ImagePullBackOff|certificate|permission denied|access denied|quota|rate limit|"
    r"does not exist|not found|mismatch|null value|overflow|corrupt|violates|duplicate key|DATA RACE|"
    r"Seq Scan|full table scan|missing index|failed to (?:pull|resolve|connect|verify|mount|bind|allocate|schedule)|no such host|unreachable|could not resolve|"
    r"manifest unknown|unknown host)\b", re.IGNORECASE)
# Lower-cased words every match of _CAUSE holds: the regex runs only on an output that has one.
_CAUSE_WORDS = ("root cause", "caused by", "because", "due to", "oomkilled", "out of memory", "killed", "evicted",
                "expired", "deadlock", "timed out", "exceeded", "refused", "no space", "too many", "backoff",
                "certificate", "denied", "quota", "rate limit", "does not exist", "not found", "mismatch", "null value",
                "overflow", "corrupt", "violates", "duplicate key", "data race", "seq scan", "full table scan",
                "missing index", "failed to", "no such host", "unreachable", "could not resolve", "manifest unknown",
                "unknown host")
_SETTING_LINE = re.compile(r"^\s*(?:\d+\s*(?:\u2192|:|\||\t)\s*)?[\"']?([A-Za-z_][\w.-]{2,60})[\"']?\s*(?::|=|:=)\s*([^\s{\[].{0,100})$", re.MULTILINE)
# In source code, a module's constants are its settings: an unindented name given a literal (a string or a
# number), as `search_index = "idx-v3"` in a conf.py; other assignments are code.
_CONSTANT_LINE = re.compile(r"^([A-Za-z_]\w{2,60})\s*(?::\s*[\w\[\], ]{1,30})?\s*:?=\s*(?:\"[^\"\n]{1,100}\"|'[^'\n]{1,100}'|"
                            r"-?\d[\d_.]*[a-zA-Z]{0,3})\s*[;,]?\s*(?:(?:#|//).*)?$", re.MULTILINE)
_HIT_LINE = re.compile(r"^([\w./-]+\.\w+:\d+)(?::\d+)?[:\t ].*$", re.MULTILINE)  # grep -n: path:line: text
# A labelled result a computation printed: a few words, then ":" "=" or "|", then a number.
_RESULT_LINE = re.compile(r"\s*([A-Za-z][\w ().,/%-]{2,60}?)\s*(?::|=|\|)\s*-?[$€£]?\d[\d,.]*(?:%|\s?[a-zA-Z%]{0,6})?"
                          r"(?:\s*\([^()\n]{0,40}\))?\s*$")
_DIGIT = re.compile(r"\d")
# "worst null column: industry (34.8% null)", "Mann-Whitney U=4324973.7, p=0.13": a few words, then the value.
_PATH = re.compile(r"[\w-]/[\w./-]*\.\w")  # a file's path ("Edited src/app.py: 1 replacement" labels no result)
_CLOCK = re.compile(r"\d{1,2}:\d{2}\b")
_CLOCK_AT = re.compile(r"\d:\d{2}\b")  # at a label's last character: the label's colon is a time's
_LABELLED = re.compile(r"([A-Za-z][\w ().%,/-]{1,50}?)\s*[:=]\s*(\S.*)$")  # "best val/loss in sweep: 2.8438"
FINDINGS_PER_OUTPUT = 3
# A line a tool flags as its news, at a line's start: "NOTE: bank charges not booked: 794.48", "warning: input VAT
# booked on reverse-charge invoices: 375.51", "SUMMARY: unreconciled difference 2,106.07", "note (billing engine): ...".
_FLAG_WORDS = ("note", "warning", "summary", "conclusion", "verdict", "finding", "result")
_FLAG_NEEDS = tuple(f"{w}{c}" for w in _FLAG_WORDS for c in ":(")  # what _FLAGGED needs in the lower-cased text
_FLAGGED = re.compile(rf"^[ \t]*(?:{'|'.join(_FLAG_WORDS)})(?: ?\([^()\n]{{1,40}}\))?:[ \t]*\S[^\n]{{8,300}}$", re.MULTILINE)
FLAGGED_PER_OUTPUT = 2
SHORT_RESULTS = 4  # a short output's labelled results are all its answer ("scanned: 646", "removed: 7,746,326 docs", ...)
CAUSES_PER_OUTPUT = 2
_DIGITS = re.compile(r"\d+")
MORE_CAUSES = 4  # cause lines past the gravest two: kept when the agent's next words name them
_SEVERE = re.compile(r"OOMKilled|out of memory|no space left|certificate has expired|expired|deadlock|root cause|caused by|"
                     r"violates|corrupt|fatal|panic|Killed process", re.IGNORECASE)
READ_CHARS = 20_000  # a file or search result is read this far for the settings and hits prose may name
SETTINGS_PER_FILE = 40
# A keyword of code, not a path's part ("/var/log/app.log" is no call to log).
_CODE_LINE = re.compile(r"(?<![./-])\b(?:raise|throw|def|func|fn|return|logger|log|print|console|fmt|assert|except|catch|errors\.New|"
                        r"const|var|let|int64|string)\b|\bf[\"']|=>|[{};]\s*$|^\s*(?:\d+\s*[:|\u2192]?\s*)?(?:#|//|[+-]\s)|"
                        r"`[^`]+`|\w\(.*\)\s*$|\w+ = \w+\(")


def _code_line(line: str) -> bool:
    """Whether a line of output is code (a source line a log or a search printed), not what happened. A
    JSON record on one line (a structured log's entry: {"level": "error", "err": "..."}) is what happened."""
    if line.startswith('{"') and line.endswith("}"):
        return False
    return _CODE_LINE.search(line) is not None


def _cause_lines(scan: str, low: str) -> list[int]:
    """The starts of the lines of ``scan`` that hold one of :data:`_CAUSE_WORDS`, in order: found by
    str.find on the lower-cased text (the regex then reads those lines only; a case-blind alternation
    of 40 words over a whole output is the slow part otherwise)."""
    if len(low) != len(scan):  # lower-casing moved positions (a few non-ASCII letters): the regex decides
        return sorted({scan.rfind("\n", 0, m.start()) + 1 for m in _CAUSE.finditer(scan)})
    starts: set[int] = set()
    for word in _CAUSE_WORDS:
        at = low.find(word)
        while at >= 0 and len(starts) < CAUSE_LINES:
            starts.add(scan.rfind("\n", 0, at) + 1)
            at = low.find(word, scan.find("\n", at) if scan.find("\n", at) >= 0 else len(scan))
    return sorted(starts)


CAUSE_LINES = 2_000  # lines with a cause word an output is read for at most
CAUSE_SENTENCE = 160  # a cause line longer than this that holds sentences gives the one with the cause
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\u00c0-\u00dd\d\"'(])")


def _sentence_at(line: str, at: int) -> str:
    """The sentence of ``line`` that holds the character at ``at``."""
    start = 0
    for m in _SENTENCE_END.finditer(line):
        if m.start() >= at:
            return line[start:m.start()].strip()
        start = m.end()
    return line[start:].strip()


def finding_items(text: str, index: int, reads: bool, error: str = "", code: bool = False, *,
                  answers: bool = False) -> list[Item]:
    """Failing tests a runner names, up to two lines that give a cause (not from code that was only read,
    and not the error line already listed), and the settings of a file that was read (weak). ``answers``: a
    read that names no file (a search, a lookup), whose labelled last line is its answer."""
    items: list[Item] = []
    scan = scanned(text)
    low = scan.lower()
    failing = list(itertools.islice(_GO_FAIL.finditer(scan), FINDINGS_PER_OUTPUT)) if "--- FAIL" in scan else []
    if len(failing) < FINDINGS_PER_OUTPUT and (("fail" in low and ("FAIL" in scan or "Failed " in scan or " failed" in scan))
                                               or any(c in scan for c in "✗✘×✕✖●")):
        failing += itertools.islice(_FAILING_TEST.finditer(scan), FINDINGS_PER_OUTPUT - len(failing))
    for m in failing:
        name = next(g for g in m.groups() if g)
        # (keyed by the test, not by how long this run took: the same test failing again is one line, the latest)
        items.append(Item("finding", _RUN_TIME.sub("", name.strip()), clip(m.group(0).strip(), 200), index))
    if '"fail' in scan and len(failing) < FINDINGS_PER_OUTPUT:  # a CI API's answer: "failed_tests": ["tests/x.py::test_y"]
        for m in itertools.islice(_FAILED_LIST.finditer(scan), 2):
            for name in itertools.islice(_JSON_STRING.finditer(m.group(1)), FINDINGS_PER_OUTPUT - len(failing)):
                items.append(Item("finding", name.group(1), clip(name.group(1), 200), index))
    if "is the first bad commit" in scan:  # what `git bisect run` found, whatever else its log printed
        bad = _FIRST_BAD.search(scan)
        if bad:
            items.append(Item("finding", "first bad commit " + bad.group(1).lower(), clip(bad.group(0).strip(), 200), index))
    frame = _FRAME_IN_SOURCE.search(scan) if " at " in scan and ("#0 " in scan or "frame #0" in scan) else None
    if frame is None and "    at " in scan:
        frame = _JS_FRAME.search(scan)
    timed = list(itertools.islice(_STATEMENT_TIME.finditer(scan), 200)) if "duration: " in scan else []
    if len(timed) >= 2:
        slowest = max(timed, key=lambda m: float(m.group(1)))
        line = slowest.group(0).strip()
        items.append(Item("finding", "slowest " + " ".join(_VARYING.sub("#", line.lower()).split())[:200],
                          clip(line, 300), index))
    if frame is not None:
        line = frame.group(0).strip(" \t*")
        items.append(Item("finding", "stopped at " + " ".join(_VARYING.sub("#", line.lower()).split())[:200],
                          clip(line, 240), index))
    found: list[tuple[int, int, str]] = []  # (severity, position, line)
    shapes: set[str] = set()
    seen = -1
    for start in _cause_lines(scan, low) if not code else ():
        if start <= seen:
            continue  # a line is read once, whatever it holds
        end = scan.find("\n", start)
        line = scan[start:end if end >= 0 else len(scan)].strip()
        seen = start
        cause = _CAUSE.search(line)
        if not cause or _zero_counts_only(line, _CAUSE):
            continue
        if len(line) > CAUSE_SENTENCE and ". " in line and not _EXCEPTION_LINE.match(line):
            # a paragraph of prose (a mail's body): the sentence that says it; an exception's line stays whole
            line = _sentence_at(line, cause.start())
        shape = " ".join(_DIGITS.sub("0", line).split())  # the same line again with other numbers (a probe failing 5 times) is one
        if 12 <= len(line) <= 400 and shape not in shapes and not _code_line(line) and not line.endswith(":") and not (
                error and (line in error or error in line)):
            shapes.add(shape)
            found.append((0 if _SEVERE.search(line) else 1, len(found), line))
        if len(found) >= 40:
            break
    for n, (_severity, _at, line) in enumerate(sorted(found)[:CAUSES_PER_OUTPUT + MORE_CAUSES]):
        # The gravest first (OOMKilled before a retry); the next few are kept when the agent's next words
        # speak of them ("the pods can't pull the image"), see ledger.merge.
        # Keyed by its shape: the same line from another run with other numbers (a readiness probe failing
        # again) is the same finding seen again, routine once seen often.
        items.append(Item("finding", " ".join(_VARYING.sub("#", line.lower()).split())[:200], clip(line, 240), index,
                          weak=n >= CAUSES_PER_OUTPUT))
    if not reads and len(low) == len(scan) and any(map(low.__contains__, _FLAG_NEEDS)):
        # what a command or a service flags as its news (the lower-cased text read: a case-blind regex is slow)
        keys = {i.key for i in items}
        for m in itertools.islice(_FLAGGED.finditer(low, 0, READ_CHARS), FLAGGED_PER_OUTPUT):
            line = scan[m.start():m.end()].strip()
            key = " ".join(_VARYING.sub("#", line.lower()).split())[:200]
            if key not in keys and not (error and (line in error or error in line)):
                items.append(Item("finding", key, clip(line, 240), index))
    if (not reads or answers) and not error:  # what a computation printed: "rows after dedupe: 680,897", "p = 0.19"
        last = _last_lines(scan, 1)
        results = 0
        if _result_line(scan, last, reads):
            items.append(Item("finding", last.strip().lower()[:80], clip(last.strip(), 200), index))
            results = 1  # a computation's news is at its end
        for line in tail_of(scan, ID_CHARS * 4).splitlines() if not reads else ():
            if len(line) > 140 or not (":" in line or "=" in line or "|" in line) or not _DIGIT.search(line):
                continue
            result = _RESULT_LINE.match(line)
            if result and _CLOCK_AT.match(line, result.end(1) - 1):
                result = None  # "Identified - 9 Jul 2027 12:47 UTC": a time's colon labels nothing
            if result and line.strip() != last.strip():
                items.append(Item("finding", result.group(1).strip().lower()[:80], clip(line.strip(), 200), index))
                results += 1
                if results >= (SHORT_RESULTS if len(scan) <= SHORT_OUTPUT else 2):
                    break
    if reads:  # where a search hit, and the settings a file holds: kept when prose names them
        head = head_of(text, READ_CHARS)
        for m in itertools.islice(_HIT_LINE.finditer(head), SETTINGS_PER_FILE) if ":" in head[:400] else ():
            items.append(Item("finding", m.group(1), clip(m.group(0).strip(), 160), index, weak=True))
        for m in itertools.islice((_CONSTANT_LINE if code else _SETTING_LINE).finditer(head), SETTINGS_PER_FILE):
            items.append(Item("finding", m.group(1).lower(), clip(m.group(0).strip(), 160), index, weak=True))
    return items


_EXIT_TRAILER = re.compile(r"^\s*(?:exit(?:ed)?(?: with)? (?:code|status)|exit_code|returncode)\b", re.IGNORECASE)


# One setting on a line ("cpu: 200m", "timeout = 30"): a read whose last lines are such is a list of them.
_ONE_SETTING = re.compile(r"^\s*[\"']?[\w.-]{1,40}[\"']?\s*[:=]\s*[^:=]*$")


def _answer_line(scan: str, last: str) -> bool:
    """Whether a read's labelled last line stands apart as its answer ("cheapest: EUR 161.51 direct" under a
    table): not a log's record (a time first, or fields), and not the last of a list of settings."""
    if last[:1].isdigit() or last.count("=") > 1 or last.startswith("{"):
        return False
    lines = [line for line in tail_of(scan, ID_CHARS).splitlines() if line.strip()]
    return len(lines) > 1 and not _ONE_SETTING.match(lines[-2])


def _last_lines(text: str, count: int = 2) -> str:
    """The last ``count`` lines of an output with words, an exit-code trailer aside."""
    lines = [line for line in tail_of(text, ID_CHARS).splitlines() if line.strip() and not _EXIT_TRAILER.match(line)]
    return "\n".join(lines[-count:])


def _result_line(scan: str, last: str, reads: bool) -> bool:
    """Whether ``last``, the last line of an output, is its labelled result ("cheapest: EUR 161.51 direct",
    "rows after dedupe: 680,897"); a read's only when it answers (not where a list or a file ends)."""
    labelled = _LABELLED.match(last.strip()) if last and len(last) <= 160 else None
    if labelled and (_CLOCK.match(labelled.group(1)[-2:] + ":" + labelled.group(2)) or (
            labelled.group(1)[-1:].isdigit() and labelled.group(2)[:1].isdigit())):
        labelled = None  # "The export job was re-run at 02:44 UTC", "Up 0.0.0.0:23868->80/tcp": a time's or an address's colon labels nothing
    if labelled and reads and not _answer_line(scan, last.strip()):
        labelled = None  # a read's last record or setting is where its list ends, not its answer
    return bool(labelled and _DIGIT.search(labelled.group(2)) and not _CODE_LINE.search(last)
                and not _PATH.search(labelled.group(1)))


def stub_line(text: str, call: ToolCall | None, asked: frozenset[str]) -> str:
    """What a one-line stub of a tool's output says it found: for a lookup (a read), the line that answers the
    user's question, else its labelled last line, before a cause line (a page's "... because of the public
    holiday" is no finding of a lookup); for a command, the failing test or the gravest cause first, then the
    answer, then its labelled result line ("cheapest: EUR 161.51 direct"); "" when it has none."""
    args = arguments(call.arguments) if call else {}
    reads = is_read(call, shell_command(call, args) if call else None)
    def result() -> str:
        scan = scanned(text)
        last = _last_lines(scan, 1)
        return clip(last.strip(), 200) if _result_line(scan, last, reads) else ""
    if reads:
        return answer_line(text, call, asked) or result() or gravest_line(text)
    return gravest_line(text) or answer_line(text, call, asked) or result()


def gravest_line(text: str) -> str:
    """What an output found, for a one-line stub of it: the failing test a runner names, else its gravest
    cause line ("OOMKilled", "Failed to pull image ..."); "" when it names none."""
    found = [i for i in finding_items(scanned(text), 0, True) if not i.weak]  # read as a read: no computed result
    return found[0].text if found else ""


def strong_ids(text: str, limit: int = 3) -> list[str]:
    """The strong identifiers (prefixed ids, UUIDs, URLs, host:port, tickets) at the ends of an output,
    where a command prints them: what a one-line stub of it still names. The last ``limit`` (a command's
    news is at its end), in the order printed."""
    text = scanned(text)
    head_tail = ends(text, ID_CHARS, ID_CHARS)
    found = [item.key for item in identifier_items(head_tail, 0, strong_only=True)]
    return found[-limit:] if limit > 0 else []


def error_line(text: str, named_only: bool = False) -> str:
    """The line that says what failed: the exception, else the failed test, else an error line (not one
    a logger wrote at info or debug level), else (unless ``named_only``: pasted text) the last line. An API's
    JSON error answer ({"error": {"type": ..., "message": ...}}) gives its message. Without a CI log's line
    prefix (job, step, timestamp: "go<TAB>Run make test<TAB>2025-05-25T19:21:42.07Z --- FAIL: ..."): the same
    failure in the next run's log is the same line."""
    line = _error_line(text, named_only)
    if line.startswith("ERROR:") and "\nDETAIL:" in text:  # PostgreSQL's detail under its error says which row or lock
        at = text.find(line)
        detail = _PG_DETAIL.match(text, at) if at >= 0 else None
        if detail:
            line = f"{line}{CLIP_MARK}{detail.group(1).strip()}"
    return _CI_LINE_PREFIX.sub("", line, count=1) if "\t" in line or "Z " in line else line


_PG_DETAIL = re.compile(r"[^\n]*\n(DETAIL: [^\n]+)")


_CI_LINE_PREFIX = re.compile("^" + _CI_JOB_STEP + _CI_STAMP)
_BARE_STAMP = re.compile(_CI_STAMP)


def _stamped(text: str, line: str) -> str:
    """``line`` as the output wrote it when :func:`error_line` took off only its time ("2026-11-03T09:17:07.272Z ERROR
    qrw::client: ..."): when it failed is part of what it says (the key, without it, is the same in the next run)."""
    at = text.rfind(line)  # (the latest time it was logged)
    if at <= 0:
        return line
    prefix = text[text.rfind("\n", 0, at) + 1:at]
    return prefix + line if prefix and _BARE_STAMP.fullmatch(prefix) else line


def _box_detail(rest: str) -> str:
    """What a Terraform diagnostic says under its title, in the box it draws ("\u2502 A managed resource
    "google_pubsub_topic" "orders_dlq" has not been declared in the root module."): the first line of prose in
    the box, not where it is ("on pubsub.tf line 52, ...") nor the code quoted ("  54:   dead_letter_topic = ...")."""
    for raw in rest.lstrip("\n").split("\n")[:BOX_LINES]:
        if not raw.lstrip().startswith("\u2502"):
            break  # the box ended ("\u2575")
        line = raw.lstrip().lstrip("\u2502").rstrip()
        body = line.strip()
        if not body or line.startswith("  ") or body.startswith(("on ", "with ", "(")) or not body[:1].isalpha():
            continue
        return clip(body, 200)
    return ""


BOX_LINES = 20  # the lines of a Terraform diagnostic's box read for what it says


# SQL Server's message under its header ("Msg 207, Level 16, State 1, Line 20", then "Invalid column name 'x'."; a level
# of 11 or more is an error, below it a notice).
_MSSQL = re.compile(r"^Msg \d+, Level (?:1[1-9]|2[0-5]), State \d+[^\n]*\n([^\n]*\S[^\n]*)$", re.MULTILINE)
# R's condition under the call it came from ("Error in `mutate()`:", where it was, "! `nyha_num` must be size 3060 or 1,
# not 3020."): what failed, not R's pointer to its trace.
_R_CONDITION = re.compile(r"^Error in [^\n]*:\n(?:[\u2139*] [^\n]*\n){0,3}(! [^\n]*\S)", re.MULTILINE)


# Maven Surefire's summary of a failed run: under "[ERROR] Failures:" (or "Errors:"), each test by its class, method and
# line, with what it asserted ("[ERROR]   VgmToleranceTest.ordersPilotTwoHoursBefore:206 expected: <PT1H> but was: ...").
_SUREFIRE = re.compile(r"^\[ERROR\] (?:Failures|Errors): ?\n(\[ERROR\] +\S+:\d+ [^\n]*\S)", re.MULTILINE)


def _error_line(text: str, named_only: bool = False) -> str:
    if "[ERROR] Failures:" in text or "[ERROR] Errors:" in text:
        surefire = _SUREFIRE.search(text)
        if surefire:
            return surefire.group(1)
    if text.lstrip().startswith("{") and '"error' in text[:200]:
        said = _json_error(text)
        if said:  # a short answer whole, on one line (its codes and ids too), a long one's message
            flat = flat_lines(text)
            return flat if len(flat) <= JSON_ERROR_CHARS else said
    # (an exception's line that names only a code, Prisma's "Error: P3018", says less than the database's "ERROR:
    # column ... contains null values" under it: read on)
    # (nor one that says nothing after its colon, R's "Error:" over its condition's lines)
    exceptions = [e for e in _EXCEPTION_LINE.findall(text) if not _BARE_CODE.match(e.strip()) and not e.rstrip().endswith(":")]
    if exceptions:
        last_frame = text.rfind('  File "') if "Traceback (most recent call last)" in text else -1
        if last_frame >= 0:  # Python's raised line is the first after the last frame; a library's detail may follow it
            first = _EXCEPTION_LINE.search(text, text.find("\n", last_frame) + 1)  # ("ncclUnhandledCudaError: ...")
            if first:
                return first.group(1).strip()
        if ".java:" in text:
            header = _java_header(text)
            if header:
                return header
        return exceptions[-1].strip()
    if "Traceback (most recent call last)" in text:
        # a raised class by its module's path, whatever its name ("google.api_core.exceptions.BadRequest: 400
        # ...", not the "Job ID: ..." printed below it)
        raised = [line for line in text.splitlines() if _RAISED.match(line)]
        if raised:
            return raised[-1].strip()
    verdict = _tool_verdict(text)  # (its parts are tried only where the words they need are)
    if verdict:
        return verdict
    condition = (_MSSQL.search(text) if "Msg " in text else None) or (_R_CONDITION.search(text) if "Error in " in text else None)
    if condition:
        return condition.group(1).strip()
    specific = _specific_error(text)
    if specific:
        line = specific.group(0).strip()
        if line == "WARNING: DATA RACE":  # what raced is the first frame after it
            frame = re.search(r"^\s*([\w./*()-]+\(\S*\))\s*$", text[specific.end():specific.end() + 600], re.MULTILINE)
            return f"{line} [...] {frame.group(1)}" if frame else line
        return line
    linked = _LINKER.findall(text) if any(map(text.__contains__, _LINKER_NEEDS)) else []
    if linked:
        return linked[-1].strip()
    failed = _FAILED_LINE.findall(text)
    if failed:
        return failed[0].strip()
    runner = _RUNNER_FAILURE.search(text) if any(map(text.__contains__, _RUNNER_NEEDS)) else None
    if runner:
        line = runner.group(0).strip()
        detail = _GO_DETAIL.match(text, runner.end()) if line.startswith("--- FAIL:") else None
        return f"{line}{CLIP_MARK}{detail.group(1).strip()}" if detail else line
    if not named_only:  # a short answer of a few lines: from the first that says it failed, its code, message and detail
        answer = [row for raw in text.splitlines() if (row := raw.strip()) and not _EXIT_LINE.match(row)
                  and not _TRAILER.match(row)]
        start = next((n for n, row in enumerate(answer) if _FAILURE_SAID.search(row)), -1) if len(answer) <= 5 else -1
        failing = answer[start:] if start >= 0 else []
        # (only where a line says it failed in words other than the error words, which the lines below read)
        if failing and sum(map(len, failing)) <= SHORT_ERROR_CHARS and any(
                not _ERROR_WORD.search(row) for row in failing if _FAILURE_SAID.search(row)):
            return " ".join(failing)
    lines = [line for line in _error_word_lines(text) if not _EXIT_LINE.match(line.strip()) and not _QUIET_LEVEL.search(line)
             and not _zero_counts_only(line, _ERROR_WORD) and not REVIEW_COMMENT.match(line)]  # (a reviewer's advice)
    telling = [line for line in lines if not _TRAILER.match(line.strip()) and not _JSON_OPENER.match(line.strip())]
    if len(telling) > 1 and "No such file" in text:  # a web server's 404s, logged as errors (a bot asking for
        # /wp-login.php), say less than any other error line of its log ("upstream timed out ...")
        telling = [line for line in telling if not _NOT_SERVED.search(line)] or telling
    if telling:  # the last one: a command's own verdict comes after its progress lines (a build's trailer says only that it failed)
        if len(telling) > 1 and _BARE_VERDICT.search(telling[-1]):
            telling = telling[:-1]  # what the last step failed with says only that ("ERROR! Failed to commit build for
            # AppID 2841170 : Failure"): the line before says why ("ERROR! Failed to build depot 2841173: content root ...")
        last = telling[-1].strip().lstrip("\u2502").strip()  # not the box Terraform draws around a diagnostic
        # ... unless an earlier one says it with more ("Commit failed: rule blk-1 is shadowed by ..." before "Commit failed")
        last = next((fuller for line in telling[-2::-1] if last in (fuller := line.strip())
                     and len(last) < len(fuller) <= FULLER_CHARS), last)
        if last.endswith(":"):  # a label ("Extension error:"): what it says is on the line after it
            after = text[text.rfind(telling[-1]) + len(telling[-1]):].lstrip("\n").split("\n", 1)[0].strip()
            return f"{last} {after}" if after else last
        if telling[-1].lstrip().startswith("\u2502"):  # Terraform's diagnostic: its title, then what it says in its box
            boxed = _box_detail(text[text.rfind(telling[-1]) + len(telling[-1]):])
            return f"{last}{CLIP_MARK}{boxed}" if boxed else last
        return last
    if lines:  # trailers only: a GNU tool's diagnostic says what they count ("msgfmt: de.po:224: duplicate message definition")
        gnu = _GNU_DIAGNOSTIC.findall(text)
        return (gnu[-1] if gnu else lines[-1]).strip()
    if named_only:
        return ""
    rest = [line.strip() for line in text.splitlines() if line.strip()]
    return rest[-1] if rest else ""


_NOT_SERVED = re.compile(r'\bopen\(\) "[^"\n]*" failed \(2: No such file or directory\)')
_BARE_VERDICT = re.compile(r":\s*(?:failure|failed|fail|error)[.!]?\s*$", re.IGNORECASE)
_JAVA_FRAME = re.compile(r"^\s+at [\w$.<>]+\([\w$.]+\.java:\d+\)\s*$")


def _java_header(text: str) -> str:
    """The exception a Java trace heads: of the exception lines just above its frames, the first (a logger may
    print what was thrown, then what wrapped it: "com.x.RateLimitException: 429 ..." above "java.io.IOException:
    ..."); of several traces, the last one's. "Caused by:" lines are causes, never a header."""
    header = ""
    run: list[str] = []
    said: list[str] = []
    for line in text.splitlines():
        m = _EXCEPTION_LINE.match(line)
        if m and not said:
            run.append(m.group(1).strip())
        elif run and _JAVA_FRAME.match(line):
            # (its message may go on over a line or two before the frames: "Migration checksum mismatch for migration
            # version 68.9" under Flyway's "FlywayValidateException: Validate failed: Migrations have failed validation")
            header, run, said = run[0] + (CLIP_MARK + said[0] if said else ""), [], []
        elif run and len(said) < JAVA_MESSAGE_LINES and line.strip() and not line.startswith((" ", "\t")):
            said.append(clip(line.strip(), 200))
        else:
            run, said = [], []
    return header


JAVA_MESSAGE_LINES = 3  # the lines an exception's message goes on over, under its own, before its frames


_GNU_DIAGNOSTIC = re.compile(r"^[\w.+-]+: [\w./+-]+\.\w+:\d+: .+$", re.MULTILINE)
_BARE_CODE = re.compile(r"^\w*(?:Error|Exception)\s*:\s*\S{1,12}$")
JSON_ERROR_CHARS = 160  # a JSON error answer up to this long is its own error line
FULLER_CHARS = 400  # a line that says an error line with more (its code, its reason) is taken up to this long


def _json_error(text: str) -> str:
    """The message of a JSON error answer: "error" (or the first of "errors") as a string, or its "message"
    (else "detail", "description"; else its "type" or "code")."""
    try:
        value = json.loads(text)
    except ValueError:
        return ""
    if not isinstance(value, dict):
        return ""
    error = value.get("error", value.get("errors"))
    if not error:  # under a key of its own ("errorMessages": ["409 Conflict: ..."], "error_message": "...")
        error = next((v for k, v in value.items() if "error" in k.lower() and isinstance(v, (str, list)) and v), error)
    if isinstance(error, list) and error:
        error = error[0]
    if isinstance(error, str):
        return clip(error, 400)
    if not isinstance(error, dict):
        return ""
    message = next((m for k in ("message", "detail", "description") if isinstance(m := error.get(k), str) and m), "")
    if not message:  # its words as written: a type or code alone when there is no message
        message = next((str(c) for k in ("type", "code") if isinstance(c := error.get(k), (str, int)) and c != ""), "")
    message = flat_lines(message)
    # A value beside it that says the message with more, as written ("raw": "Authorization_RequestDenied:
    # Insufficient privileges ...", its code before it)
    fuller = next((flat for v in value.values() if isinstance(v, str) and len(v) <= FULLER_CHARS
                   and message in (flat := flat_lines(v)) and len(flat) > len(message)), "") if message else ""
    return clip(fuller or message, 400)


# A count of none ("failed=0", "unreachable=0", "0 errors"): a recap that says nothing failed.
_ZERO_COUNT = re.compile(r"\b(?:failed|failures?|errors?|unreachable|skipped|rescued|ignored)\s*[=:]\s*0\b|"
                         r"\b0 (?:failed|failures?|errors?)\b", re.IGNORECASE)


def _zero_counts_only(line: str, words: re.Pattern[str]) -> bool:
    """Whether the only words of ``words`` a line holds are counts of none (an Ansible recap's "failed=0")."""
    return "0" in line and _ZERO_COUNT.search(line) is not None and not words.search(_ZERO_COUNT.sub("", line))


# A log line at info or debug level ("INFO ... job finished failed=2"): progress, not what failed.
_QUIET_LEVEL = re.compile(r"\b(?:INFO|DEBUG|TRACE)\b|\blevel=(?:info|debug|trace)\b|\"level\": ?\"(?:info|debug)\"")

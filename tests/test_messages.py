"""The message model: views of OpenAI chat messages, digests, and validation of untrusted input."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from context_compactor.errors import InputError
from context_compactor.messages import (
    NON_TEXT_PART_CHARS,
    ToolCall,
    digest,
    prepend_text,
    validate_messages,
    view_of,
    with_text,
)


def call(call_id: str, name: str = "bash", arguments: Any = '{"command": "ls"}') -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


@pytest.fixture
def valid() -> list[dict[str, Any]]:
    """A small, valid agent conversation with every role and content shape."""
    return [
        {"role": "system", "content": "You are terse."},
        {"role": "developer", "content": [{"type": "text", "text": "Prefer pytest."}]},
        {"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": "x"}}]},
        {"role": "assistant", "content": None, "tool_calls": [call("c1"), call("c2", "read", {"path": "a.py"})]},
        {"role": "tool", "tool_call_id": "c1", "content": "a.py\nb.py"},
        {"role": "tool", "tool_call_id": "c2", "content": [{"type": "text", "text": "print(1)"}]},
        {"role": "assistant", "content": "Done."},
        {"role": "function", "name": "legacy", "content": "ok"},
        {"role": "user", "content": ["plain string part"]},
    ]


# --- view_of ---------------------------------------------------------------------------------------


def test_view_of_string_content() -> None:
    """A string content is the view's text, with no extra cost."""
    view = view_of({"role": "user", "content": "hello"})
    assert (view.role, view.text, view.extra_chars, view.chars) == ("user", "hello", 0, 5)


def test_view_of_missing_content_is_empty_text() -> None:
    """An assistant message with null content has empty text."""
    view = view_of({"role": "assistant", "content": None})
    assert view.text == ""
    assert view.chars == 0


def test_view_of_text_parts_are_joined_by_newlines() -> None:
    """Text parts (and bare string parts) are joined with newlines."""
    view = view_of({"role": "user", "content": [
        {"type": "text", "text": "one"}, "two", {"type": "input_text", "text": "three"}]})
    assert view.text == "one\ntwo\nthree"
    assert view.extra_chars == 0


def test_view_of_image_part_costs_a_flat_estimate() -> None:
    """Each non-text part adds NON_TEXT_PART_CHARS to the message's size."""
    view = view_of({"role": "user", "content": [
        {"type": "text", "text": "see"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
        {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}},
    ]})
    assert view.text == "see"
    assert view.extra_chars == 2 * NON_TEXT_PART_CHARS
    assert view.chars == 3 + 2 * NON_TEXT_PART_CHARS


def test_view_of_refusal_part_counts_its_text() -> None:
    """An assistant refusal part is text, not a picture-sized unknown."""
    view = view_of({"role": "assistant", "content": [{"type": "refusal", "refusal": "I can't."}]})
    assert view.text == "I can't."
    assert view.extra_chars == 0


def test_view_of_thinking_costs_its_own_length_and_is_never_text() -> None:
    """Thinking parts and an assistant's reasoning fields are sized at their length (a host may send them
    back to the model), not at a flat rate, and are never read as what was said."""
    long = "step " * 2000  # 10,000 characters: more than the flat rate of a picture
    view = view_of({"role": "assistant", "reasoning_content": long, "content": [
        {"type": "thinking", "thinking": "short", "signature": "sig"},
        {"type": "redacted_thinking", "data": "xyz"},
        {"type": "text", "text": "answer"}]})
    assert view.text == "answer"
    assert view.extra_chars == len(long) + len("short") + len("sig") + len("xyz")  # a signature goes back too
    details = [{"type": "reasoning.text", "text": "abc"}]
    assert view_of({"role": "assistant", "content": "a", "reasoning_details": details}).extra_chars == len(json.dumps(details))
    assert view_of({"role": "user", "content": "a", "reasoning_content": long}).extra_chars == 0  # only an assistant's


def test_view_of_tool_calls_with_string_arguments() -> None:
    """Assistant tool calls become ToolCalls with the arguments string as given."""
    view = view_of({"role": "assistant", "content": "running", "tool_calls": [call("c1", "bash", '{"command":"ls"}')]})
    assert view.calls == (ToolCall(id="c1", name="bash", arguments='{"command":"ls"}'),)
    assert view.chars == len("running") + len("bash") + len('{"command":"ls"}')


def test_view_of_tool_calls_with_object_arguments() -> None:
    """Arguments given as an object are serialised to JSON text (non-ASCII kept as is)."""
    view = view_of({"role": "assistant", "tool_calls": [call("c1", "write", {"path": "é.txt"})]})
    assert view.calls[0].arguments == '{"path": "é.txt"}'


def test_view_of_tool_call_without_arguments_costs_only_its_name() -> None:
    """A call with no (or null) arguments has empty arguments, not the text "null"."""
    view = view_of({"role": "assistant", "tool_calls": [
        {"id": "a", "function": {"name": "now"}}, {"id": "b", "function": {"name": "now", "arguments": None}}]})
    assert [c.arguments for c in view.calls] == ["", ""]


def test_view_of_legacy_function_call_is_counted() -> None:
    """The legacy function_call form is read as a call, so its arguments are measured."""
    view = view_of({"role": "assistant", "content": None, "function_call": {"name": "get", "arguments": '{"a":1}'}})
    assert [(c.name, c.arguments) for c in view.calls] == [("get", '{"a":1}')]


def test_view_of_tool_calls_only_on_assistant_messages() -> None:
    """A tool_calls field on a user message is not read as calls."""
    assert view_of({"role": "user", "content": "x", "tool_calls": [call("c1")]}).calls == ()


def test_view_of_tool_message() -> None:
    """A tool message's view carries its call id, tool name and error flag."""
    view = view_of({"role": "tool", "tool_call_id": "c9", "name": "bash", "content": "boom", "is_error": True})
    assert (view.role, view.call_id, view.tool_name, view.is_error, view.text) == ("tool", "c9", "bash", True, "boom")


def test_view_of_function_message_reads_as_tool() -> None:
    """The legacy function role reads as a tool result."""
    view = view_of({"role": "function", "name": "get", "content": "42"})
    assert (view.role, view.tool_name, view.call_id, view.text) == ("tool", "get", None, "42")


def test_view_of_developer_reads_as_system() -> None:
    """The developer role reads as system."""
    assert view_of({"role": "developer", "content": "rules"}).role == "system"


# --- digest ----------------------------------------------------------------------------------------


@given(st.dictionaries(st.text(max_size=8), st.one_of(st.text(max_size=20), st.integers(), st.none()), max_size=8))
def test_digest_ignores_key_order(message: dict[str, Any]) -> None:
    """Two dicts with the same items in any key order have the same digest."""
    reordered = dict(reversed(list(message.items())))
    assert digest(reordered) == digest(message)


def test_digest_ignores_key_order_in_nested_objects() -> None:
    """Key order inside tool calls does not change the digest either."""
    a = {"role": "assistant", "tool_calls": [{"id": "1", "function": {"name": "x", "arguments": "{}"}}]}
    b = {"tool_calls": [{"function": {"arguments": "{}", "name": "x"}, "id": "1"}], "role": "assistant"}
    assert digest(a) == digest(b)


def test_digest_changes_with_content() -> None:
    """A one-character change in content gives a different digest."""
    assert digest({"role": "user", "content": "a"}) != digest({"role": "user", "content": "b"})


def test_digest_is_a_fixed_length_hex_string() -> None:
    """A digest is 32 lowercase hex characters, the same across calls."""
    value = digest({"role": "user", "content": "x"})
    assert len(value) == 32
    assert int(value, 16) >= 0
    assert value == digest(json.loads(json.dumps({"content": "x", "role": "user"})))


def test_digest_tells_apart_values_that_print_alike() -> None:
    """Strings that look like numbers, nesting and concatenations give different digests."""
    variants = [
        {"role": "user", "content": "1"}, {"role": "user", "content": 1}, {"role": "user", "content": 1.0},
        {"role": "user", "content": True}, {"role": "user", "content": None}, {"role": "user", "content": ["1"]},
        {"role": "user", "content": [["1"]]}, {"role": "user", "content": {"1": "1"}},
        {"role": "user", "content": "ab", "name": "c"}, {"role": "user", "content": "a", "name": "bc"},
        {"role": "user", "content": "s1'a"}, {"role": "user", "content": ""}, {"role": "user"},
    ]
    assert len({digest(v) for v in variants}) == len(variants)


@given(st.recursive(st.one_of(st.text(max_size=6), st.integers(), st.booleans(), st.none()),
                    lambda inner: st.one_of(st.lists(inner, max_size=3),
                                            st.dictionaries(st.text(max_size=4), inner, max_size=3)),
                    max_leaves=8),
       st.recursive(st.one_of(st.text(max_size=6), st.integers(), st.booleans(), st.none()),
                    lambda inner: st.one_of(st.lists(inner, max_size=3),
                                            st.dictionaries(st.text(max_size=4), inner, max_size=3)),
                    max_leaves=8))
def test_digest_differs_when_the_json_differs(a: Any, b: Any) -> None:
    """Two messages with different content (as sorted JSON) have different digests."""
    same_json = json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    same_kind = json.dumps(a, sort_keys=True, default=type) == json.dumps(b, sort_keys=True, default=type)
    if not same_json:
        assert digest({"content": a}) != digest({"content": b})
    elif same_kind:
        assert digest({"content": a}) == digest({"content": b})


def test_digest_takes_lone_surrogates_and_odd_values() -> None:
    """A lone surrogate, non-string keys and non-JSON values still give a digest, not an error."""
    assert digest({"role": "user", "content": "\ud800"}) != digest({"role": "user", "content": "\ud801"})
    assert digest({1: "a", "1": "b"}) == digest({"1": "b", 1: "a"})
    assert len(digest({"role": "user", "content": {"at": object.__new__(type("Odd", (), {"__str__": lambda s: "x"}))}})) == 32


def test_digest_is_the_same_for_a_copy_and_for_the_tuple_form() -> None:
    """A deep copy digests the same; a tuple reads as the list it stands for (as in JSON)."""
    message = {"role": "assistant", "tool_calls": [call("c1", "read", {"path": "a.py"})]}
    assert digest(copy.deepcopy(message)) == digest(message)
    assert digest({"content": ("a", "b")}) == digest({"content": ["a", "b"]})


def test_view_is_immutable() -> None:
    """A view cannot be changed after it is built (the engine memoises it per message)."""
    view = view_of({"role": "user", "content": "hi"})
    with pytest.raises(AttributeError):
        view.text = "changed"  # type: ignore[misc]


# --- copies ----------------------------------------------------------------------------------------


def test_with_text_replaces_content_and_keeps_the_rest() -> None:
    """with_text returns a new message with new content and every other field kept; the original is untouched."""
    original = {"role": "tool", "tool_call_id": "c1", "name": "bash", "content": [{"type": "text", "text": "long"}]}
    snapshot = copy.deepcopy(original)
    changed = with_text(original, "short")
    assert changed == {**snapshot, "content": "short"}
    assert original == snapshot


@pytest.mark.parametrize(("content", "expected"), [
    ("question", "NOTE\n\nquestion"),
    (None, "NOTE\n\n"),
    ([{"type": "text", "text": "q"}], [{"type": "text", "text": "NOTE"}, {"type": "text", "text": "q"}]),
])
def test_prepend_text_puts_text_in_front(content: Any, expected: Any) -> None:
    """prepend_text puts the text before string or list content without changing the original."""
    original = {"role": "user", "content": content}
    assert prepend_text(original, "NOTE")["content"] == expected
    assert original["content"] == content


# --- validate_messages ------------------------------------------------------------------------------


def test_validate_accepts_a_valid_conversation(valid: list[dict[str, Any]]) -> None:
    """A well-formed conversation is returned as the very same list."""
    assert validate_messages(valid) is valid


def test_validate_accepts_assistant_without_content() -> None:
    """An assistant message may have null content and no tool calls."""
    validate_messages([{"role": "user", "content": "hi"}, {"role": "assistant", "content": None}])


def invalid(data: Any) -> InputError:
    with pytest.raises(InputError) as raised:
        validate_messages(data)
    return raised.value


@pytest.mark.parametrize("data", [{"messages": []}, "hello", 3, None])
def test_validate_rejects_what_is_not_a_list(data: Any) -> None:
    """Anything but a list is refused, at the top level."""
    error = invalid(data)
    assert error.where == "messages"
    assert "expected a list" in str(error)


def test_validate_rejects_an_empty_list() -> None:
    """An empty list is refused: there is nothing to compact."""
    error = invalid([])
    assert error.where == "messages"
    assert "empty" in str(error)


def test_validate_rejects_a_message_that_is_not_an_object() -> None:
    """A message that is not an object is refused at its index."""
    error = invalid([{"role": "user", "content": "hi"}, ["user", "hi"]])
    assert error.where == "messages[1]"
    assert "object" in str(error)


def test_validate_rejects_a_message_without_role() -> None:
    """A message without a role is refused at its index."""
    error = invalid([{"role": "user", "content": "a"}, {"role": "user", "content": "b"}, {"content": "c"}])
    assert error.where == "messages[2]"
    assert "role" in str(error)


@pytest.mark.parametrize("role", ["robot", "", "USER", 5, ["user"]])
def test_validate_rejects_an_unknown_role(role: Any) -> None:
    """An unknown role is refused at the message's role, listing the known ones."""
    error = invalid([{"role": role, "content": "x"}])
    assert error.where == "messages[0].role"
    assert "unknown role" in str(error)
    assert "assistant" in str(error)


@pytest.mark.parametrize("content", [5, {"text": "x"}, True, 1.5])
def test_validate_rejects_content_of_the_wrong_type(content: Any) -> None:
    """Content that is neither a string nor a list of parts is refused at the content."""
    error = invalid([{"role": "user", "content": content}])
    assert error.where == "messages[0].content"
    assert "string or a list" in str(error)


@pytest.mark.parametrize("role", ["user", "tool"])
def test_validate_rejects_missing_content_where_it_is_needed(role: str) -> None:
    """User and tool messages must have content."""
    messages: list[dict[str, Any]] = [{"role": "assistant", "tool_calls": [call("c1")]}]
    messages.append({"role": role, "tool_call_id": "c1"})
    error = invalid(messages)
    assert error.where == "messages[1].content"


@pytest.mark.parametrize(("part", "words"), [
    (42, "must be an object"),
    (None, "must be an object"),
    ({"type": "text", "text": 7}, "string 'text'"),
    ({"type": "text"}, "string 'text'"),
    ({"type": "input_text", "text": ["x"]}, "string 'text'"),
    ({"text": "no type"}, "string 'type'"),
    ({"type": 3}, "string 'type'"),
])
def test_validate_rejects_a_bad_content_part(part: Any, words: str) -> None:
    """A malformed content part is refused at its index within the content."""
    error = invalid([{"role": "user", "content": [{"type": "text", "text": "fine"}, part]}])
    assert error.where == "messages[0].content[1]"
    assert words in str(error)


@pytest.mark.parametrize(("tool_calls", "where", "words"), [
    ({"id": "c1"}, "messages[1].tool_calls", "must be a list"),
    (["c1"], "messages[1].tool_calls[0]", "'function' object"),
    ([{"id": "c1"}], "messages[1].tool_calls[0]", "'function' object"),
    ([{"id": "c1", "function": "bash"}], "messages[1].tool_calls[0]", "'function' object"),
    ([{"id": "c1", "function": {"arguments": "{}"}}], "messages[1].tool_calls[0].function", "string 'name'"),
    ([{"function": {"name": "bash"}}], "messages[1].tool_calls[0]", "'id'"),
    ([{"id": "", "function": {"name": "bash"}}], "messages[1].tool_calls[0]", "'id'"),
    ([call("c1"), {"id": 7, "function": {"name": "bash"}}], "messages[1].tool_calls[1]", "'id'"),
    ([{"id": "c1", "function": {"name": "bash", "arguments": 5}}], "messages[1].tool_calls[0].function.arguments",
     "arguments"),
])
def test_validate_rejects_malformed_tool_calls(tool_calls: Any, where: str, words: str) -> None:
    """Malformed tool calls are refused at the call that is wrong."""
    error = invalid([{"role": "user", "content": "go"}, {"role": "assistant", "tool_calls": tool_calls}])
    assert error.where == where
    assert words in str(error)


def test_validate_accepts_object_arguments() -> None:
    """Tool-call arguments may be an object as well as a JSON string."""
    validate_messages([{"role": "user", "content": "go"},
                       {"role": "assistant", "tool_calls": [call("c1", arguments={"x": 1})]},
                       {"role": "tool", "tool_call_id": "c1", "content": "ok"}])


def test_validate_rejects_a_tool_message_answering_no_call() -> None:
    """A tool result whose call id no earlier assistant message made is refused, naming the id."""
    error = invalid([{"role": "user", "content": "go"},
                     {"role": "assistant", "tool_calls": [call("c1")]},
                     {"role": "tool", "tool_call_id": "c2", "content": "?"}])
    assert error.where == "messages[2]"
    assert "'c2'" in str(error)


def test_validate_rejects_a_tool_result_before_its_call() -> None:
    """A tool result must come after the call it answers, not before."""
    error = invalid([{"role": "user", "content": "go"},
                     {"role": "tool", "tool_call_id": "c1", "content": "early"},
                     {"role": "assistant", "tool_calls": [call("c1")]}])
    assert error.where == "messages[1]"


@pytest.mark.parametrize("call_id", [None, 7])
def test_validate_rejects_a_tool_message_without_a_call_id(call_id: Any) -> None:
    """A tool message needs a string tool_call_id."""
    message: dict[str, Any] = {"role": "tool", "content": "x"}
    if call_id is not None:
        message["tool_call_id"] = call_id
    error = invalid([{"role": "assistant", "tool_calls": [call("c1")]}, message])
    assert error.where == "messages[1]"
    assert "tool_call_id" in str(error)


def test_validate_names_the_spot_under_a_custom_prefix() -> None:
    """The where prefix given by the caller leads every location."""
    with pytest.raises(InputError) as raised:
        validate_messages([{"role": "user", "content": 3}], where="body.messages")
    assert raised.value.where == "body.messages[0].content"
    assert str(raised.value).startswith("body.messages[0].content: ")


# --- properties over untrusted input ---------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
FIELD_VALUES = st.one_of(JSON, st.sampled_from(["user", "assistant", "tool", "system", "c1", "text", "function"]))
MESSAGE_LIKE = st.dictionaries(
    st.sampled_from(["role", "content", "tool_calls", "tool_call_id", "name", "type", "text", "function", "id"]),
    st.one_of(FIELD_VALUES, st.lists(st.dictionaries(
        st.sampled_from(["type", "text", "id", "function", "name", "arguments"]), FIELD_VALUES, max_size=4), max_size=3)),
    max_size=5,
)


@given(st.one_of(JSON, st.lists(st.one_of(MESSAGE_LIKE, JSON), max_size=6)))
def test_validation_raises_only_input_error_and_validated_messages_read(data: Any) -> None:
    """Whatever JSON comes in, validation either accepts it or raises InputError; what it accepts, view_of reads."""
    try:
        messages = validate_messages(data)
    except InputError as error:
        assert error.where is not None and str(error).startswith(error.where)
        return
    for message in messages:
        view = view_of(message)
        assert view.role in ("system", "user", "assistant", "tool")
        assert view.chars >= len(view.text)


@st.composite
def conversations(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Valid agent conversations: user turns, assistant replies, tool calls each answered after they are made."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": draw(st.text(max_size=20))}]
    for turn in range(draw(st.integers(min_value=1, max_value=4))):
        messages.append({"role": "user", "content": draw(st.text(max_size=20))})
        for step in range(draw(st.integers(min_value=0, max_value=3))):
            ids = [f"call-{turn}-{step}-{k}" for k in range(draw(st.integers(min_value=1, max_value=3)))]
            arguments = draw(st.one_of(st.text(max_size=10), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2)))
            messages.append({"role": "assistant", "content": None,
                             "tool_calls": [call(i, "bash", arguments) for i in ids]})
            messages += [{"role": "tool", "tool_call_id": i, "content": draw(st.text(max_size=20))} for i in ids]
        messages.append({"role": "assistant", "content": draw(st.text(max_size=20))})
    return messages


@given(conversations())
def test_valid_conversations_are_accepted_and_read(messages: list[dict[str, Any]]) -> None:
    """Every well-formed conversation passes validation, and each tool result's call id is one an earlier call made."""
    assert validate_messages(messages) is messages
    made: set[str] = set()
    for view in map(view_of, messages):
        made.update(c.id for c in view.calls)
        if view.role == "tool":
            assert view.call_id in made


def test_view_of_tolerates_an_odd_part_type() -> None:
    """A host message with an unhashable part type (never validated) is read, not crashed on."""
    view = view_of({"role": "user", "content": [{"type": ["text"], "text": "x"}, {"type": "text", "text": "y"}]})
    assert view.text == "y"
    assert view.extra_chars == NON_TEXT_PART_CHARS

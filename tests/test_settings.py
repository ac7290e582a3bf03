"""Settings: defaults, OpenClaw option names, config files, the environment, per-model overrides."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from context_compactor.errors import ConfigError
from context_compactor.settings import DEFAULT_CONTEXT_WINDOW, Settings, SummaryModel, load_settings


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No CONTEXT_COMPACTOR_* variable of the machine running the tests leaks in."""
    for name in list(os.environ):
        if name.upper().startswith("CONTEXT_COMPACTOR_"):
            monkeypatch.delenv(name)


@pytest.fixture
def write_config(tmp_path: Path) -> Any:
    """Write a JSON config file (or raw text) into tmp_path and return its path."""

    def write(data: Any, name: str = "config.json") -> Path:
        path = tmp_path / name
        path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2), encoding="utf-8")
        return path

    return write


# --- defaults --------------------------------------------------------------------------------------


def test_defaults_match_the_architecture_table() -> None:
    """With nothing configured, every option has the default docs/ARCHITECTURE.md lists."""
    s = Settings()
    assert s.enabled is True
    assert s.max_tokens is None  # derived: compactAt x window
    assert s.context_window is None  # discovered, else DEFAULT_CONTEXT_WINDOW
    assert DEFAULT_CONTEXT_WINDOW == 8192
    assert (s.compact_at, s.compact_to) == (0.75, 0.5)
    assert s.keep_recent_tokens == 2000
    assert s.summary_max_tokens is None  # "auto": the room the target leaves after the tail
    assert s.chars_per_token == 4
    assert s.chunk_tokens == 16000
    assert s.max_tool_result_tokens == 4000
    assert s.summary_model is None
    assert s.models == {}
    assert s.tokenizer == "chars"


def test_load_settings_without_a_file_gives_the_defaults() -> None:
    """load_settings() with no file and no overrides equals Settings()."""
    assert load_settings() == Settings()


# --- OpenClaw option names and file shapes -----------------------------------------------------------

OPENCLAW_CONFIG = {
    "enabled": False,
    "maxTokens": 6000,
    "keepRecentTokens": 1500,
    "summaryMaxTokens": 800,
    "charsPerToken": 3.5,
    "summaryModel": {"baseUrl": "http://127.0.0.1:11434/v1", "model": "qwen2.5:3b", "apiKeyEnv": "OLLAMA_KEY"},
}


def check_openclaw_values(s: Settings) -> None:
    assert s.enabled is False
    assert s.max_tokens == 6000
    assert s.keep_recent_tokens == 1500
    assert s.summary_max_tokens == 800
    assert s.chars_per_token == 3.5
    assert s.summary_model == SummaryModel(base_url="http://127.0.0.1:11434/v1", model="qwen2.5:3b",
                                           api_key_env="OLLAMA_KEY")


def test_openclaw_option_names_are_accepted(write_config: Any) -> None:
    """A config written for the OpenClaw context-compactor plugin (camelCase) loads as is."""
    check_openclaw_values(load_settings(write_config(OPENCLAW_CONFIG)))


def test_plugin_entry_shape_is_accepted(write_config: Any) -> None:
    """An OpenClaw plugin entry {"enabled": ..., "config": {...}} is read from its config."""
    check_openclaw_values(load_settings(write_config({"enabled": True, "config": OPENCLAW_CONFIG})))


def test_snake_case_names_are_accepted_too(write_config: Any) -> None:
    """Options may also be given by their Python names."""
    s = load_settings(write_config({"keep_recent_tokens": 10, "context_window": 4096}))
    assert (s.keep_recent_tokens, s.context_window) == (10, 4096)


def test_overrides_win_over_the_file(write_config: Any) -> None:
    """Explicit overrides (the CLI's flags) beat the file; None overrides are ignored."""
    path = write_config({"keepRecentTokens": 100, "contextWindow": 4096})
    s = load_settings(path, {"keepRecentTokens": 50, "contextWindow": None})
    assert (s.keep_recent_tokens, s.context_window) == (50, 4096)


def test_a_flag_beats_a_models_glob_in_the_file(write_config: Any) -> None:
    """--context-window on the command line wins over the file's per-model contextWindow for a matching model."""
    path = write_config({"models": {"ollama/*": {"contextWindow": 32768, "keepRecentTokens": 300}}})
    s = load_settings(path, {"contextWindow": 8192}).for_model("ollama/llama3")
    assert (s.context_window, s.keep_recent_tokens) == (8192, 300)


def test_without_a_flag_the_glob_beats_the_files_top_level(write_config: Any) -> None:
    """Within one file, the per-model glob still beats the top-level value (by Python name too)."""
    path = write_config({"contextWindow": 8192, "models": {"ollama/*": {"context_window": 4096}}})
    assert load_settings(path, {"keepRecentTokens": 10}).for_model("ollama/llama3").context_window == 4096


def test_unknown_key_names_the_key_and_the_file(write_config: Any) -> None:
    """A misspelled option is a ConfigError naming both the option and the file."""
    path = write_config({"keepRecentToken": 100})
    with pytest.raises(ConfigError) as raised:
        load_settings(path)
    assert raised.value.key == "keepRecentToken"
    assert str(path) in str(raised.value)
    assert "keepRecentToken" in str(raised.value)
    assert "unknown option" in str(raised.value)


def test_unknown_key_inside_a_model_override_is_named(write_config: Any) -> None:
    """A misspelled option under models names its full path."""
    with pytest.raises(ConfigError) as raised:
        load_settings(write_config({"models": {"ollama/*": {"contextWindw": 4096}}}))
    assert raised.value.key == "models.ollama/*.contextWindw"


def test_value_out_of_range_names_the_key(write_config: Any) -> None:
    """A value outside its range is a ConfigError on that key."""
    with pytest.raises(ConfigError) as raised:
        load_settings(write_config({"summaryMaxTokens": 10}))
    assert raised.value.key == "summaryMaxTokens"


def test_malformed_json_names_line_and_column(write_config: Any) -> None:
    """Broken JSON is a ConfigError giving the file, line and column."""
    path = write_config('{\n  "maxTokens": 100\n  "enabled": true\n}')
    with pytest.raises(ConfigError) as raised:
        load_settings(path)
    message = str(raised.value)
    assert str(path) in message
    assert "line 3 column 3" in message


def test_missing_config_file_is_a_config_error(tmp_path: Path) -> None:
    """A config path that does not exist is a ConfigError naming it."""
    with pytest.raises(ConfigError, match="no such config file"):
        load_settings(tmp_path / "absent.json")


def test_config_folder_is_a_config_error(tmp_path: Path) -> None:
    """A folder given as the config file is a ConfigError, not an OSError."""
    with pytest.raises(ConfigError, match=str(tmp_path)):
        load_settings(tmp_path)


@pytest.mark.parametrize("data", [[1, 2], '"text"', 3, None])
def test_config_that_is_not_an_object_is_refused(write_config: Any, data: Any) -> None:
    """A JSON file that is not an object of options is refused, naming the type found."""
    with pytest.raises(ConfigError, match="expected a JSON object"):
        load_settings(write_config(data))


@pytest.mark.parametrize(("at", "to"), [(0.5, 0.5), (0.5, 0.6), (0.75, 0.9)])
def test_target_at_or_above_trigger_is_refused(write_config: Any, at: float, to: float) -> None:
    """compactTo must be below compactAt, or compaction would fire again on the next turn."""
    with pytest.raises(ConfigError, match="compactTo .* must be below compactAt"):
        load_settings(write_config({"compactAt": at, "compactTo": to}))


def test_idle_compaction_is_off_by_default_and_takes_seconds(write_config: Any) -> None:
    """idleCompactAfterSeconds is unset (off) by default and reads a number of seconds from the config."""
    assert Settings().idle_compact_after_seconds is None
    assert load_settings(write_config({"idleCompactAfterSeconds": 300})).idle_compact_after_seconds == 300


@pytest.mark.parametrize("value", [0, -5, "soon"])
def test_idle_compaction_refuses_what_is_not_a_positive_number_of_seconds(write_config: Any, value: Any) -> None:
    """A zero, negative or non-numeric idleCompactAfterSeconds is refused, naming the option."""
    with pytest.raises(ConfigError, match="idleCompactAfterSeconds"):
        load_settings(write_config({"idleCompactAfterSeconds": value}))


def test_model_override_cannot_put_the_target_above_the_trigger(write_config: Any) -> None:
    """An override that would make compactTo >= compactAt is refused when the config loads."""
    with pytest.raises(ConfigError, match="ollama/\\*"):
        load_settings(write_config({"models": {"ollama/*": {"compactTo": 0.8}}}))


def test_summary_model_api_key_is_secret(write_config: Any) -> None:
    """An inline API key is kept as a secret: it never shows in repr or str."""
    s = load_settings(write_config({"summaryModel": {"baseUrl": "http://x", "model": "m", "apiKey": "sk-hidden"}}))
    assert s.summary_model is not None and s.summary_model.api_key is not None
    assert s.summary_model.api_key.get_secret_value() == "sk-hidden"
    assert "sk-hidden" not in repr(s)
    assert "sk-hidden" not in str(s)


# --- environment -----------------------------------------------------------------------------------


def test_env_var_sets_an_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """CONTEXT_COMPACTOR_KEEP_RECENT_TOKENS sets keepRecentTokens."""
    monkeypatch.setenv("CONTEXT_COMPACTOR_KEEP_RECENT_TOKENS", "1234")
    assert load_settings().keep_recent_tokens == 1234


def test_env_var_sets_a_boolean(monkeypatch: pytest.MonkeyPatch) -> None:
    """CONTEXT_COMPACTOR_ENABLED=false turns compaction off."""
    monkeypatch.setenv("CONTEXT_COMPACTOR_ENABLED", "false")
    assert load_settings().enabled is False


def test_env_var_sets_a_structured_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """A JSON value in CONTEXT_COMPACTOR_MODELS becomes the per-model overrides."""
    monkeypatch.setenv("CONTEXT_COMPACTOR_MODELS", '{"ollama/*": {"contextWindow": 4096}}')
    assert load_settings().for_model("ollama/llama3").context_window == 4096


def test_file_wins_over_env(monkeypatch: pytest.MonkeyPatch, write_config: Any) -> None:
    """A config file's value beats the environment's."""
    monkeypatch.setenv("CONTEXT_COMPACTOR_KEEP_RECENT_TOKENS", "1234")
    assert load_settings(write_config({"keepRecentTokens": 10})).keep_recent_tokens == 10


@pytest.mark.parametrize("name", ["keepRecentTokens", "KEEPRECENTTOKENS", "CONTEXT_COMPACTOR_KEEPRECENTTOKENS"])
def test_unprefixed_or_camel_env_vars_are_ignored(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Only CONTEXT_COMPACTOR_<SNAKE_NAME> is read: another program's `maxTokens`-like variable changes nothing."""
    monkeypatch.setenv(name, "77")
    monkeypatch.setenv("MAXTOKENS", "5")
    monkeypatch.setenv("CONTEXTWINDOW", "5")
    s = load_settings()
    assert (s.keep_recent_tokens, s.max_tokens, s.context_window) == (2000, None, None)


def test_bad_env_value_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A malformed environment value is a ConfigError naming the variable it came from."""
    monkeypatch.setenv("CONTEXT_COMPACTOR_KEEP_RECENT_TOKENS", "lots")
    with pytest.raises(ConfigError) as raised:
        load_settings()
    assert raised.value.key == "keep_recent_tokens"
    assert str(raised.value).startswith("environment variable CONTEXT_COMPACTOR_KEEP_RECENT_TOKENS: ")


# --- per-model overrides ----------------------------------------------------------------------------


@pytest.fixture
def tuned() -> Settings:
    return Settings(models={
        "ollama/*": {"contextWindow": 8192, "keepRecentTokens": 500},
        "ollama/llama3*": {"contextWindow": 32768},
        "qwen2.5:*": {"chunkTokens": 4096},
    })


def test_for_model_without_a_match_is_unchanged(tuned: Settings) -> None:
    """A model no glob matches gets the settings themselves."""
    assert tuned.for_model("openai/gpt-4o") is tuned
    assert tuned.for_model(None) is tuned


def test_for_model_matches_provider_glob(tuned: Settings) -> None:
    """"ollama/*" applies to every ollama model."""
    s = tuned.for_model("ollama/mistral")
    assert (s.context_window, s.keep_recent_tokens) == (8192, 500)


def test_for_model_later_override_wins(tuned: Settings) -> None:
    """When several globs match, they apply in order and a later one wins, field by field."""
    s = tuned.for_model("ollama/llama3:8b")
    assert s.context_window == 32768
    assert s.keep_recent_tokens == 500  # from the earlier match, not undone by the later one


def test_for_model_order_is_the_written_order() -> None:
    """Swapping the order of two matching globs swaps which one wins."""
    first = Settings(models={"a/*": {"contextWindow": 1000}, "a/b": {"contextWindow": 2000}})
    second = Settings(models={"a/b": {"contextWindow": 2000}, "a/*": {"contextWindow": 1000}})
    assert first.for_model("a/b").context_window == 2000
    assert second.for_model("a/b").context_window == 1000


def test_for_model_matches_the_bare_model_id(tuned: Settings) -> None:
    """A glob without a provider matches the model id after the provider prefix."""
    assert tuned.for_model("ollama/qwen2.5:3b").chunk_tokens == 4096
    assert tuned.for_model("qwen2.5:3b").chunk_tokens == 4096


def test_for_model_result_has_its_overrides_applied_once(tuned: Settings) -> None:
    """The settings for a model carry no overrides of their own, so choosing again changes nothing."""
    chosen = tuned.for_model("ollama/llama3:8b")
    assert chosen.models == {}
    assert chosen.for_model("ollama/llama3:8b") == chosen


def test_for_model_is_case_sensitive(tuned: Settings) -> None:
    """Globs match case-sensitively on every platform."""
    assert tuned.for_model("Ollama/mistral").context_window is None


def test_for_model_leaves_the_base_settings_alone(tuned: Settings) -> None:
    """Applying an override returns new settings; the originals are unchanged."""
    tuned.for_model("ollama/mistral")
    assert tuned.context_window is None
    assert tuned.keep_recent_tokens == 2000


def test_for_model_keeps_summary_model_typed() -> None:
    """A summaryModel given in an override is a SummaryModel, like one given at the top level."""
    s = Settings(models={"ollama/*": {"summaryModel": {"baseUrl": "http://127.0.0.1:11434", "model": "small"}}})
    chosen = s.for_model("ollama/big").summary_model
    assert isinstance(chosen, SummaryModel)
    assert (chosen.base_url, chosen.model) == ("http://127.0.0.1:11434", "small")


def test_for_model_skips_an_override_that_breaks_a_rule_with_earlier_ones() -> None:
    """A later match that would put compactTo above an earlier compactAt is skipped with a warning, the rest applied."""
    s = Settings(models={"a/*": {"compactAt": 0.6, "compactTo": 0.4}, "*/x": {"compactTo": 0.7, "chunkTokens": 999}})
    with capture_logs() as logs:
        chosen = s.for_model("a/x")
    assert (chosen.compact_at, chosen.compact_to, chosen.chunk_tokens) == (0.6, 0.4, 16000)
    assert [(e["event"], e["pattern"], e["model"]) for e in logs] == [("settings.override_skipped", "*/x", "a/x")]
    assert "compactTo (0.7) must be below compactAt (0.6)" in logs[0]["error"]
    assert s.for_model("b/x").compact_to == 0.7  # alone, the same override is fine


def test_for_model_result_is_reused(tuned: Settings) -> None:
    """The settings for one model are built once and then reused."""
    assert tuned.for_model("ollama/mistral") is tuned.for_model("ollama/mistral")


def test_choosing_for_a_model_does_not_change_equality() -> None:
    """Settings that were asked for a model still equal the same settings never asked."""
    models = {"a/*": {"contextWindow": 100}}
    asked, fresh = Settings(models=models), Settings(models=models)
    asked.for_model("a/b")
    assert asked == fresh


def test_settings_are_frozen() -> None:
    """Settings are immutable once built, so a shared instance cannot drift."""
    s = Settings()
    with pytest.raises(Exception):  # noqa: B017 - pydantic's frozen error type varies by version
        s.keep_recent_tokens = 5  # type: ignore[misc]

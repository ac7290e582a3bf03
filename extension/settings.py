"""Settings: one pydantic-settings class, built at the edge (CLI, bridge, gateway) and passed down.

Option names follow the OpenClaw context-compactor plugin config (``maxTokens``,
``keepRecentTokens``, ``summaryMaxTokens``, ``charsPerToken``, ``summaryModel``, ``enabled``), so a
config written for it keeps working. Values come from, lowest to highest priority: defaults, the
environment (``CONTEXT_COMPACTOR_<SNAKE_NAME>``), a JSON config file, explicit arguments.
Per-model overrides live under ``models`` as ``{"<glob on provider/model id>": {...}}``; they beat
the file's top-level values, but not an explicit argument (a command-line flag beats a config file).
"""

from __future__ import annotations

import fnmatch
import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import (BaseModel, ConfigDict, Field, PrivateAttr, SecretStr, ValidationError, field_validator,
                      model_validator)
from pydantic_settings import BaseSettings, EnvSettingsSource, PydanticBaseSettingsSource, SettingsConfigDict

from .errors import ConfigError
from .logs import get_logger

logger = get_logger()

DEFAULT_CONTEXT_WINDOW = 8192  # never assume 200k for a model nobody told us about

Tokenizer = Literal["chars", "cl100k_base", "o200k_base", "server"]


class SummaryModel(BaseModel):
    """A separate model for summaries; when absent the session model is used."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    base_url: str = Field(alias="baseUrl")
    model: str
    api: Literal["openai", "ollama", "auto"] = "auto"
    api_key_env: str | None = Field(default=None, alias="apiKeyEnv")
    api_key: SecretStr | None = Field(default=None, alias="apiKey")
    timeout_seconds: float = Field(default=60.0, gt=0, alias="timeoutSeconds")
    max_tokens: int | None = Field(default=None, gt=0, alias="maxTokens")
    context_window: int | None = Field(default=None, gt=0, alias="contextWindow")


class ModelOverride(BaseModel):
    """The numbers that a per-model override may change (all optional: unset means inherit)."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    enabled: bool | None = None
    max_tokens: int | None = Field(default=None, gt=0, alias="maxTokens")
    context_window: int | None = Field(default=None, gt=0, alias="contextWindow")
    compact_at: float | None = Field(default=None, gt=0, le=1, alias="compactAt")
    compact_to: float | None = Field(default=None, gt=0, lt=1, alias="compactTo")
    keep_recent_tokens: int | None = Field(default=None, ge=0, alias="keepRecentTokens")
    summary_max_tokens: int | None = Field(default=None, ge=64, alias="summaryMaxTokens")
    chars_per_token: float | None = Field(default=None, ge=0.5, le=20, alias="charsPerToken")
    tokenizer: Tokenizer | None = None
    chunk_tokens: int | None = Field(default=None, ge=256, alias="chunkTokens")
    max_tool_result_tokens: int | None = Field(default=None, ge=64, alias="maxToolResultTokens")
    summary_model: SummaryModel | None = Field(default=None, alias="summaryModel")


Tuning = ModelOverride  # the former name (engine.Tuning is the planner's sizes, another thing)


class _PerModelCache(dict):
    """Settings already chosen per model id; a cache, so never part of equality."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _PerModelCache)

    __hash__ = None


class _PrefixedEnv(EnvSettingsSource):
    """Environment values from ``CONTEXT_COMPACTOR_<SNAKE_NAME>`` only.

    pydantic-settings also reads a field's alias from the environment, unprefixed, so a stray
    ``MAXTOKENS`` or ``contextWindow`` variable meant for another program would change ours.
    Values read by alias come back keyed by the alias; the prefixed ones by field name.
    """

    def __call__(self) -> dict[str, Any]:
        fields = self.settings_cls.model_fields
        return {key: value for key, value in super().__call__().items() if key in fields}


# The defaults are the table in docs/ARCHITECTURE.md ("Defaults"); the docstring is the description of the
# plugin manifest's configSchema, which ships without the docs, so it names no file.
class Settings(BaseSettings):
    """Every option of context-compactor, with its default."""

    model_config = SettingsConfigDict(
        env_prefix="CONTEXT_COMPACTOR_",
        populate_by_name=True,
        extra="forbid",
        frozen=True,
    )

    enabled: bool = True
    max_tokens: int | None = Field(default=None, gt=0, alias="maxTokens")
    context_window: int | None = Field(default=None, gt=0, alias="contextWindow")
    compact_at: float = Field(default=0.75, gt=0, le=1, alias="compactAt")
    compact_to: float = Field(default=0.5, gt=0, lt=1, alias="compactTo")
    keep_recent_tokens: int = Field(default=2000, ge=0, alias="keepRecentTokens")
    # None ("auto"): the ledger takes the room the target leaves after the recent tail.
    summary_max_tokens: int | None = Field(default=None, ge=64, alias="summaryMaxTokens")
    chars_per_token: float = Field(default=4.0, ge=0.5, le=20, alias="charsPerToken")
    tokenizer: Tokenizer = "chars"
    calibrate: bool = True
    chunk_tokens: int = Field(default=16000, ge=256, alias="chunkTokens")
    max_tool_result_tokens: int = Field(default=4000, ge=64, alias="maxToolResultTokens")
    message_overhead_tokens: int = Field(default=4, ge=0, le=64, alias="messageOverheadTokens")
    summary_model: SummaryModel | None = Field(default=None, alias="summaryModel")
    # Without summaryModel: summarise with the session model when the host says where it is.
    summarize_with_session_model: bool = Field(default=True, alias="summarizeWithSessionModel")
    summary_timeout_seconds: float = Field(default=20.0, gt=0, alias="summaryTimeoutSeconds")
    precompact_at: float = Field(default=0.6, gt=0, le=1, alias="precompactAt")
    # After a session was idle this long, its next turn compacts to the target even under the trigger
    # (a server has evicted its prompt cache by then: the whole prompt is computed again anyway). None: off.
    idle_compact_after_seconds: float | None = Field(default=None, gt=0, alias="idleCompactAfterSeconds")
    announce: bool = False
    store_path: str | None = Field(default=None, alias="storePath")
    cache_max_entries: int = Field(default=20000, ge=16, alias="cacheMaxEntries")
    # The archive's retention: the oldest sessions go first past either limit (0: no limit).
    archive_max_mb: float = Field(default=1024.0, ge=0, alias="archiveMaxMb")
    archive_max_days: float = Field(default=180.0, ge=0, alias="archiveMaxDays")
    # The agent-loop behaviours (issue 13): each one can be switched off.
    strip_thinking: bool = Field(default=True, alias="stripThinking")
    fold_failed_calls: bool = Field(default=True, alias="foldFailedCalls")
    refuse_repeated_failures: bool = Field(default=True, alias="refuseRepeatedFailures")
    retry_garbled_tool_calls: bool = Field(default=True, alias="retryGarbledToolCalls")
    side_questions: bool = Field(default=True, alias="sideQuestions")
    task_reminder_every: int = Field(default=4, ge=0, alias="taskReminderEvery")  # 0: never
    reopen_on_bigger_window: bool = Field(default=True, alias="reopenOnBiggerWindow")
    # OpenClaw: count its system prompt and tool schemas (read from its llm_input hook) in the prompt the
    # window must hold; off, the history is fitted to the budget OpenClaw states for it (issue 22).
    count_host_prompt: bool = Field(default=True, alias="countHostPrompt")
    loop_breakers: bool = Field(default=True, alias="loopBreakers")
    save_state_reminder: bool = Field(default=False, alias="saveStateReminder")
    models: dict[str, ModelOverride] = Field(default_factory=dict)
    _per_model: _PerModelCache = PrivateAttr(default_factory=lambda: _PerModelCache())

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return init_settings, _PrefixedEnv(settings_cls), dotenv_settings, file_secret_settings

    @field_validator("summary_max_tokens", mode="before")
    @classmethod
    def _auto_summary(cls, value: Any) -> Any:
        return None if isinstance(value, str) and value.strip().lower() == "auto" else value

    @model_validator(mode="after")
    def _target_below_trigger(self) -> Settings:
        if self.compact_to >= self.compact_at:
            raise ValueError(
                f"compactTo ({self.compact_to}) must be below compactAt ({self.compact_at}): "
                "compaction aims below the trigger so that it does not fire again on the next turn"
            )
        for pattern, tuning in self.models.items():
            at = tuning.compact_at if tuning.compact_at is not None else self.compact_at
            to = tuning.compact_to if tuning.compact_to is not None else self.compact_to
            if to >= at:
                raise ValueError(f"models[{pattern!r}]: compactTo ({to}) must be below compactAt ({at})")
        return self

    def for_model(self, model_id: str | None) -> Settings:
        """These settings with every ``models`` override whose glob matches ``model_id`` applied.

        Overrides apply in the order they are written; a later match wins over an earlier one. A
        match that would break a rule together with the earlier ones (compactTo below compactAt) is
        skipped with a warning: this runs on every turn, where nothing may fail.
        """
        if not model_id or not self.models:
            return self
        cached = self._per_model.get(model_id)
        if cached is None:
            if len(self._per_model) >= 256:  # model ids may come from clients: stay bounded
                self._per_model.clear()
            cached = self._per_model[model_id] = self._override(model_id)
        return cached

    def _override(self, model_id: str) -> Settings:
        result = self
        # The result has its overrides applied and none left (so applying them again changes nothing).
        values = {name: getattr(self, name) for name in type(self).model_fields} | {"models": {}}
        for pattern, tuning in self.models.items():
            if not (fnmatch.fnmatchcase(model_id, pattern) or fnmatch.fnmatchcase(model_id.split("/", 1)[-1], pattern)):
                continue
            # Attributes, not model_dump(): a nested summaryModel must stay a SummaryModel.
            changes = {name: getattr(tuning, name) for name in type(tuning).model_fields
                       if getattr(tuning, name) is not None}
            try:
                # Validated again, so overrides cannot break a rule together (compactTo below compactAt).
                result = type(self).model_validate({**values, **changes})
            except ValidationError as exc:
                # Settings are read on every turn, by callers that must not fail: skip, say why.
                logger.warning("settings.override_skipped", model=model_id, pattern=pattern,
                               error=str(_explain(exc, f"models[{pattern!r}]")))
                continue
            values.update(changes)
        return result


def _explain(error: ValidationError, source: str) -> ConfigError:
    first = error.errors()[0]
    key = ".".join(str(part) for part in first["loc"]) or "(top level)"
    message = first["msg"]
    if first["type"] == "extra_forbidden":
        message = "unknown option (check its spelling against the README's configuration table)"
    elif first["type"] == "value_error" and "error" in first.get("ctx", {}):
        message = str(first["ctx"]["error"])  # our own rule's words, without pydantic's "Value error, "
    return ConfigError(f"{source}: {key}: {message}", key=key)


def _without(models: dict[str, Any], flags: dict[str, Any]) -> dict[str, Any]:
    """The file's per-model overrides without the options given explicitly (flags beat config files)."""
    names = {_field_name(key) for key in flags}
    return {pattern: {k: v for k, v in tuning.items() if _field_name(k) not in names}
            if isinstance(tuning, dict) else tuning for pattern, tuning in models.items()}


def _field_name(key: str) -> str:
    for name, info in Settings.model_fields.items():
        if key in (name, info.alias):
            return name
    return key


def load_settings(
    config_file: str | Path | None = None, overrides: dict[str, Any] | None = None
) -> Settings:
    """Build settings from the environment, an optional JSON config file and explicit overrides.

    The file may be a bare options object, or an OpenClaw plugin entry (``{"config": {...}}``).
    An override (a command-line flag) also beats the file's ``models`` globs for that option.
    Raises ConfigError naming the file and the key on anything malformed.
    """
    values: dict[str, Any] = {}
    source = "settings"
    if config_file is not None:
        path = Path(config_file)
        source = str(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"{path}: no such config file") from None
        except json.JSONDecodeError as exc:
            raise ConfigError(
                f"{path} line {exc.lineno} column {exc.colno}: {exc.msg} (fix the JSON; nothing was changed)"
            ) from None
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
        if isinstance(data, dict) and isinstance(data.get("config"), dict):
            data = data["config"]
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: expected a JSON object of options, got {type(data).__name__}")
        values.update(data)
    flags = {k: v for k, v in (overrides or {}).items() if v is not None}
    if isinstance(values.get("models"), dict) and "models" not in flags:
        values["models"] = _without(values["models"], flags)
    values.update(flags)
    try:
        return Settings(**values)
    except ValidationError as exc:
        field = str(exc.errors()[0]["loc"][0]) if exc.errors()[0]["loc"] else ""
        variable = f"CONTEXT_COMPACTOR_{field.upper()}"
        if field and field not in values and any(name.upper() == variable for name in os.environ):
            source = f"environment variable {variable}"  # the bad value came from there, not the file
        raise _explain(exc, source) from None

// context-compactor for OpenClaw: a context engine whose assemble() hands the session's history to
// the Python engine (`python -m context_compactor.bridge`, one long-lived child per gateway process,
// JSON lines over stdio) and returns what it decides: OpenClaw's own message objects for what is
// kept, plus one summary message. The transcript itself is never changed.
//
// Fail open: if the child cannot start, dies, answers with an error or not in time, the history
// goes to the model unchanged and the gateway log says why. The child's life (starts, restarts after
// a pause, hangs killed by PID, the health record doctor reads) is bridge_child.js.
//
// OpenClaw 2026.9.6 imports this module several times per process and builds a new engine object
// per turn, so the child and all state live on globalThis. It calls commitTurn (not ingest or
// afterTurn) once per turn; afterTurn is kept for harness hosts. Installed by
// `context-compactor setup`, which records the Python interpreter in .context-compactor.json.
//
// The engine owns compaction (info.ownsCompaction): OpenClaw then calls assemble before every model
// call of a tool loop too, with the history before the current turn (which, after the first call,
// is our own projection: it is mapped back to the originals here) and a budget net of the turn's
// pending messages. What the window must also hold, OpenClaw's system prompt and tool schemas, is
// read from the llm_input hook (plugins.entries.context-compactor.hooks.allowConversationAccess)
// and handed to the bridge, which measures it with the session's counter.
import { G, ID, log, pluginConfig, request, seconds, warn } from "./bridge_child.js";

const VERSION = "0.1.0";
// The commands the Python side provides (its register_commands hook); a test keeps the two in step.
const COMMANDS = [
  { name: "compact-now", acceptsArgs: true,
    description: "Compact this conversation now (optional note: what the summary should focus on)" },
  { name: "context-stats", acceptsArgs: false,
    description: "Show how full the context window is and what compaction has done" },
];
const RECENT_KEYS = 4096;
G.recallable ??= new Set(); // session keys that have compacted: recall_history is offered to them
G.fixed ??= new Map(); // session key -> {system, tools} of its last model call (llm_input): OpenClaw's fixed part
G.agentFixed ??= new Map(); // agent id -> the same, for the first call of a new session
G.views ??= new Map(); // session key -> {input, output}: the history the last assemble got and what it returned
G.limits ??= new Map(); // session key -> {window, reserve}: what the last assemble was told of the model
G.additions ??= new Map(); // session key -> the systemPromptAddition we returned (OpenClaw puts it in its system prompt)

function estimate(messages) {
  let chars = 0;
  for (const m of messages ?? []) chars += JSON.stringify(m?.content ?? m?.summary ?? "").length;
  return Math.ceil(chars / 4);
}

function sessionKey(p) {
  return p?.sessionKey ?? p?.sessionId ?? "default";
}

function bounded256(map, key, value) {
  map.delete(key);
  map.set(key, value);
  if (map.size > 256) map.delete(map.keys().next().value);
}

// The model's context window as openclaw.json states it (models.providers.<p>.models[].contextWindow,
// capped by agents.defaults.contextTokens), or null.
function configWindow(provider, modelId) {
  const cfg = G.api?.config ?? {};
  const models = cfg.models?.providers?.[provider]?.models;
  const found = Array.isArray(models) ? models.find((m) => m?.id === modelId) : null;
  const window = typeof found?.contextWindow === "number" ? found.contextWindow : null;
  const cap = cfg.agents?.defaults?.contextTokens;
  return window && typeof cap === "number" && cap > 0 ? Math.min(window, cap) : window;
}

// The tools OpenClaw's tool search (2026.9.x, its default "tools" mode) leaves on the wire when it catalogs the
// rest: its controls, tools marked catalogMode "direct-only", and the core coding and shell tools
// (core-tool-factory-descriptors: base-coding and shell families). llm_input lists every tool, the
// cataloged ones too (59 tools, about 27k tokens, where the wire carries 12, about 2.6k): counting
// those would fold the history for room the prompt never needs.
const SEARCH_CONTROLS = { tools: ["tool_search", "tool_describe", "tool_call"], code: ["tool_search_code"] };
const ALL_CONTROLS = new Set(["tool_search", "tool_describe", "tool_call", "tool_search_code"]);
const CORE_CODING = new Set(["edit", "read", "ls", "write", "apply_patch", "exec", "process"]);
function wireTools(tools) {
  const list = (Array.isArray(tools) ? tools : []).filter((t) => t && typeof t.name === "string");
  const search = G.api?.config?.tools?.toolSearch; // unset: on, "tools" mode; true or an object: "code" unless it says
  const mode = search === undefined ? "tools" : typeof search?.mode === "string" ? search.mode : "code";
  const controls = new Set(SEARCH_CONTROLS[mode] ?? []);
  if (search === false || search?.enabled === false || !list.some((t) => controls.has(t.name))) {
    return mode === "directory" ? list : list.filter((t) => !ALL_CONTROLS.has(t.name)); // no catalog: all but controls
  }
  return list.filter((t) => controls.has(t.name) ||
    (!ALL_CONTROLS.has(t.name) && (t.catalogMode === "direct-only" || CORE_CODING.has(t.name))));
}

// The tool schemas as a provider request carries them ({type: "function", function: {...}}).
function toolSchemas(tools) {
  return wireTools(tools).map((t) => ({
    type: "function", function: { name: t.name, description: t.description ?? "", parameters: t.parameters ?? {} },
  }));
}

function sameMessage(a, b) {
  if (a === b) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

// A loop assemble's history is what the last assemble returned (OpenClaw made it the agent's history),
// plus what came after it: the originals are put back, so the engine always works on the real history.
function originals(key, messages) {
  const view = G.views.get(key);
  if (!view || view.output === view.input || messages.length < view.output.length) return messages;
  for (let i = 0; i < view.output.length; i++) if (!sameMessage(messages[i], view.output[i])) return messages;
  return [...view.input, ...messages.slice(view.output.length)];
}

function remember(key) {
  G.committed.add(key);
  if (G.committed.size > RECENT_KEYS) G.committed.delete(G.committed.values().next().value);
}

function makeEngine() {
  const summarySeconds = () => seconds("summaryTimeoutSeconds", 20);
  return {
    info: {
      id: ID, name: "Context Compactor", version: VERSION,
      // OpenClaw then assembles before every model call of a tool loop; /compact and overflow recovery are ours.
      ownsCompaction: true,
      transcriptSemantics: {
        currentTurnFence: "before-current-turn-entry-v1",
        turnAdvancementIdempotency: "atomic-idempotent-v1",
      },
    },
    async ingest() {
      return { ingested: true };
    },
    async ingestBatch(p) {
      return { ingestedCount: p?.messages?.length ?? 0 };
    },
    async assemble(params) {
      const key = sessionKey(params);
      const messages = originals(key, params?.messages ?? []);
      const unchanged = { messages: params?.messages ?? [], estimatedTokens: estimate(params?.messages ?? []) };
      try {
        const rs = params?.runtimeSettings ?? {};
        const limits = rs.limits ?? {};
        const provider = rs.model?.provider;
        const model = params?.model ? (provider ? `${provider}/${params.model}` : String(params.model)) : "unknown";
        // Before the run OpenClaw states its budget net of output, system prompt and turn (limits repeat it);
        // inside the loop limits.promptTokenBudget is the window, the budget is net of the pending messages.
        const budget = typeof params?.tokenBudget === "number" ? params.tokenBudget : null;
        const loop = typeof limits.promptTokenBudget === "number" && budget !== null && limits.promptTokenBudget !== budget;
        const known = G.limits.get(key) ?? {};
        const window = (loop ? limits.promptTokenBudget : null) ?? configWindow(provider, params?.model) ?? known.window ?? null;
        const reserve = (loop ? null : limits.maxOutputTokens) ?? known.reserve ?? null;
        bounded256(G.limits, key, { window, reserve });
        const fixed = G.fixed.get(key) ?? G.agentFixed.get(params?.agentId ?? "main") ?? null;
        const r = await request("assemble", {
          sessionKey: key, sessionId: params?.sessionId, messages, prompt: params?.prompt ?? "",
          tokenBudget: budget, model, reserveTokens: reserve, contextWindow: window, loop,
          pendingTokens: loop && window ? Math.max(0, window - budget) : 0,
          systemPrompt: fixed?.system ?? null, tools: fixed?.tools ?? null,
        }, (summarySeconds() + 10) * 1000);
        for (const n of r?.notices ?? []) log().info(n);
        if (r?.recall) for (const k of [key, params?.sessionId]) if (k) G.recallable.add(k);
        let out = messages;
        if (Array.isArray(r?.messages)) {
          out = r.messages.map((item) => (typeof item === "number" ? messages[item] : item));
          if (out.some((m) => !m || typeof m !== "object")) throw new Error("the bridge named a message that is not there");
        }
        bounded256(G.views, key, { input: messages, output: out });
        const result = { messages: out, estimatedTokens: r?.estimatedTokens ?? estimate(out) };
        // What the engine appended to the current turn (the task reminder): OpenClaw adds that turn itself.
        if (typeof r?.systemPromptAddition === "string" && r.systemPromptAddition) result.systemPromptAddition = r.systemPromptAddition;
        bounded256(G.additions, key, result.systemPromptAddition ?? "");
        return result;
      } catch (e) {
        warn(`assemble failed: ${e?.message ?? e}`);
        G.views.delete(key);
        return unchanged;
      }
    },
    async commitTurn(params) {
      const key = params?.advancementKey;
      if (key && G.committed.has(key)) return { status: "duplicate" };
      if (key) remember(key);
      try {
        const rc = params?.runtimeContext ?? {};
        const fixed = G.fixed.get(sessionKey(params));
        await request("commit", {
          sessionKey: sessionKey(params), advancementKey: key, messages: params?.messages ?? [],
          contextWindow: rc.modelContextWindow ?? null,
          model: rc.provider && rc.modelId ? `${rc.provider}/${rc.modelId}` : rc.modelId ?? null,
          systemPrompt: fixed?.system ?? null, tools: fixed?.tools ?? null,
        }, 15000);
      } catch (e) {
        log().warn(`commitTurn: ${e?.message ?? e} (usage of this turn not recorded)`);
      }
      return { status: "committed" };
    },
    async afterTurn(params) {
      // Harness hosts call this instead of commitTurn: the new messages start at prePromptMessageCount.
      try {
        const all = params?.messages ?? [];
        await request("commit", {
          sessionKey: sessionKey(params), messages: all.slice(params?.prePromptMessageCount ?? 0),
        }, 15000);
      } catch (e) {
        log().warn(`afterTurn: ${e?.message ?? e}`);
      }
    },
    async compact(params) {
      const trigger = params?.runtimeContext?.trigger ?? (params?.compactionTarget === "budget" ? "budget" : "manual");
      let r = null;
      try {
        // Overflow recovery: the next prompt is strictly smaller (0.7x the refused one); "compacted" only when it is.
        r = await request("compact", {
          sessionKey: sessionKey(params), trigger,
          currentTokenCount: typeof params?.currentTokenCount === "number" ? params.currentTokenCount : null,
        }, (summarySeconds() + 15) * 1000);
      } catch (e) {
        warn(`compact failed: ${e?.message ?? e}`);
      }
      // Ours made the prompt smaller, or says why not (manual; or OpenClaw's preflight, already under target).
      if (r?.compacted || trigger === "manual" || (r && trigger !== "overflow")) {
        return {
          ok: true, compacted: !!r?.compacted, reason: r?.reason ?? G.warning ?? undefined,
          result: r?.compacted ? { tokensBefore: r.tokensBefore ?? 0, tokensAfter: r.tokensAfter ?? undefined } : undefined,
        };
      }
      // The server refused a prompt and ours could not make it smaller (or the bridge failed): OpenClaw's own
      // compaction is the safety net.
      try {
        const sdk = await import("openclaw/plugin-sdk/core");
        return await sdk.delegateCompactionToRuntime(params);
      } catch (e) {
        return { ok: false, compacted: false, reason: `context-compactor could not compact: ${e?.message ?? e}` };
      }
    },
    async dispose() {}, // one engine object per turn; the child lives on in globalThis
  };
}

// recall_history: a plugin tool, offered to a session once it has compacted (nothing is added before);
// its description and parameters come from the bridge (hooks/recall.py), its calls are answered there.
function registerRecall(api) {
  if (typeof api.registerTool !== "function") return;
  api.registerTool((ctx) => {
    const key = ctx?.sessionKey ?? ctx?.sessionId;
    const spec = G.recallSpec;
    if (process.env.CONTEXT_COMPACTOR_DEBUG) log().info(`recall_history for ${key}: ${spec && G.recallable.has(key) ? "offered" : "not yet"}`);
    if (!key || !spec || !(G.recallable.has(key) || (ctx?.sessionId && G.recallable.has(ctx.sessionId)))) return null;
    return {
      name: spec.name, label: "Recall history", description: spec.description, parameters: spec.parameters,
      catalogMode: "direct-only", // in the model's own tool list, not behind OpenClaw's tool search: it is small
      async execute(_id, params) {
        let text;
        try {
          text = (await request("tool", { name: spec.name, sessionKey: key, arguments: params ?? {} }, 15000))?.text;
        } catch (e) {
          text = `recall_history is not available: ${e?.message ?? e}`;
        }
        return { content: [{ type: "text", text: text ?? "recall_history: no answer" }], details: {} };
      },
    };
  }, { name: "recall_history" });
}

// Tool calls go through the bridge's before_tool_call / after_tool_call hooks (hooks/tools.py), over
// OpenClaw's own (docs/plugins/hooks/tool-policy.md): the rules live there, once for every host. The
// first is refuseRepeatedFailures: a call that already failed twice exactly as written is blocked the
// third time, the model told why and the last error. Each result is handed over as OpenClaw gives it;
// a check waits for the session's results before it, and lets the call run when the bridge fails.
G.toolResults ??= new Map(); // session key -> the promise of its last toolResult request
function registerGuard(api) {
  if (typeof api.on !== "function") return;
  api.on("after_tool_call", (event, ctx) => {
    const key = sessionKey(ctx);
    const sent = request("toolResult", {
      sessionKey: key, toolName: event?.toolName, params: event?.params ?? {}, toolCallId: event?.toolCallId,
      result: event?.result ?? null, error: event?.error ? String(event.error) : null,
    }, 5000).catch((e) => log().warn(`after_tool_call: ${e?.message ?? e} (not recorded)`));
    G.toolResults.delete(key);
    G.toolResults.set(key, sent);
    if (G.toolResults.size > 256) G.toolResults.delete(G.toolResults.keys().next().value);
  });
  api.on("before_tool_call", async (event, ctx) => {
    const key = sessionKey(ctx);
    await G.toolResults.get(key);
    let verdict;
    try {
      verdict = await request("toolCall", { sessionKey: key, toolName: event?.toolName, params: event?.params ?? {},
                                            toolCallId: event?.toolCallId }, 5000);
    } catch (e) {
      log().warn(`before_tool_call: ${e?.message ?? e} (the call runs)`);
      return;
    }
    if (!verdict?.block) return;
    log().info(`refused ${event?.toolName} (${verdict.rule})`);
    return { block: true, blockReason: verdict.reason };
  });
}

// OpenClaw's system prompt and tool schemas, as each model call is about to get them: the fixed part
// of every prompt, which the window must hold besides the history (observe-only; no prompt is changed).
function registerPromptWatch(api) {
  if (typeof api.on !== "function") return;
  api.on("llm_input", (event, ctx) => {
    const key = sessionKey(ctx);
    let system = typeof event?.systemPrompt === "string" ? event.systemPrompt : "";
    if (G.ownSummary && system.includes(G.ownSummary)) return; // our own summary call through llm.complete, not the agent's prompt
    const added = G.additions.get(key);
    if (added && system.includes(added)) system = system.replace(added, ""); // counted with the turn already
    const fixed = { system, tools: toolSchemas(event?.tools) };
    if (process.env.CONTEXT_COMPACTOR_DEBUG) {
      log().info(`llm_input for ${key}: system ${system.length} chars, ${fixed.tools.length} tools ` +
        `(${JSON.stringify(fixed.tools).length} chars) of ${(event?.tools ?? []).length} listed: ${fixed.tools.map((t) => t.function.name).join(" ")}`);
    }
    bounded256(G.fixed, key, fixed);
    if (ctx?.sessionId) bounded256(G.fixed, ctx.sessionId, fixed);
    bounded256(G.agentFixed, ctx?.agentId ?? "main", fixed);
  });
}

function registerCommand(api, spec) {
  api.registerCommand({
    name: spec.name, description: spec.description, acceptsArgs: spec.acceptsArgs,
    async handler(ctx) {
      try {
        const r = await request("command", { name: spec.name, args: ctx?.args ?? "", sessionKey: sessionKey(ctx) },
          (seconds("summaryTimeoutSeconds", 20) + 15) * 1000);
        return { text: r?.text ?? "context-compactor: no answer" };
      } catch (e) {
        warn(`/${spec.name} failed: ${e?.message ?? e}`);
        return { text: `context-compactor is not working: ${e?.message ?? e}. The history is sent to the model unchanged; see the gateway log, or run \`context-compactor doctor\`.` };
      }
    },
  });
}

export default {
  id: ID,
  name: "Context Compactor",
  description: "Keeps long conversations inside the model's context window; the transcript is never changed.",
  register(api) {
    // Discovery-time imports get a thinner api; the gateway's own ("full") registration wins.
    if (!G.api || api.registrationMode === "full" || G.api.registrationMode !== "full") G.api = api;
    api.registerContextEngine(ID, () => makeEngine());
    for (const spec of COMMANDS) registerCommand(api, spec);
    registerRecall(api);
    registerGuard(api);
    registerPromptWatch(api);
  },
};

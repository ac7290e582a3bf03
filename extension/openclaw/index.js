// context-compactor for OpenClaw: a context engine whose assemble() hands the session's history to
// the Python engine (`python -m context_compactor.bridge`, one long-lived child per gateway process,
// JSON lines over stdio) and returns what it decides: OpenClaw's own message objects for what is
// kept, plus one summary message. The transcript itself is never changed.
//
// Fail open: if the child cannot start, dies, answers with an error or not in time, the history
// goes to the model unchanged and the gateway log says why. A child that dies is started again on
// a later call, after a pause that doubles with each death in a row (1 s up to 5 min) and is 1 s
// again once a child has served a turn: never off for good, never a tight restart loop. A child that
// does not answer a request within its time limit is hung: it is killed by its PID at once (every
// request waiting on it fails open then, not at its own limit) and the next call starts a new one.
// Starts, crashes, hangs and restarts go to <state>/context-compactor/bridge-health.json for doctor.
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
import { AsyncLocalStorage } from "node:async_hooks";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ID = "context-compactor";
const VERSION = "0.1.0";
// The commands the Python side provides (its register_commands hook); a test keeps the two in step.
const COMMANDS = [
  { name: "compact-now", acceptsArgs: true,
    description: "Compact this conversation now (optional note: what the summary should focus on)" },
  { name: "context-stats", acceptsArgs: false,
    description: "Show how full the context window is and what compaction has done" },
];
const RECENT_KEYS = 4096;
// Deeper than this, a value is sent as its JSON text: Python reads nesting only so deep, and one
// tool result's `details` must not stop every assemble (the host's own objects are unchanged).
const MAX_DEPTH = 64;

// The restart pause: base x 2^(deaths in a row - 1), capped. CONTEXT_COMPACTOR_RESTART_BACKOFF_MS
// ("base,max") is for tests.
function backoffMs(deaths) {
  const [base, max] = (process.env.CONTEXT_COMPACTOR_RESTART_BACKOFF_MS ?? "1000,300000").split(",").map(Number);
  return Math.min(max >= 0 ? max : 300000, (base >= 0 ? base : 1000) * 2 ** Math.max(0, deaths - 1));
}

const G = (globalThis.__contextCompactor ??= {
  child: null, starts: 0, deaths: 0, retryAt: 0, lastDeath: null, nextId: 1, pending: new Map(),
  committed: new Set(), api: null, configJson: null, warning: null, exitHooked: false,
});
G.recallable ??= new Set(); // session keys that have compacted: recall_history is offered to them
G.recallSpec ??= null; // the tool's description and parameters, from the bridge's configure reply
G.ownSummary ??= null; // how our summary calls' system prompt opens (the bridge's configure reply says)
G.fixed ??= new Map(); // session key -> {system, tools} of its last model call (llm_input): OpenClaw's fixed part
G.agentFixed ??= new Map(); // agent id -> the same, for the first call of a new session
G.views ??= new Map(); // session key -> {input, output}: the history the last assemble got and what it returned
G.limits ??= new Map(); // session key -> {window, reserve}: what the last assemble was told of the model
G.additions ??= new Map(); // session key -> the systemPromptAddition we returned (OpenClaw puts it in its system prompt)

// What doctor reads of the bridge's life: starts, crashes (exits we did not ask for), hangs (killed for
// not answering in time), restarts, and the last of each. Beside the store (store.default_store_path).
G.health ??= { starts: 0, crashes: 0, hangs: 0, restarts: 0, lastCrash: null, lastHang: null, pid: null };
function healthPath() {
  const state = process.env.OPENCLAW_STATE_DIR || join(homedir(), ".openclaw");
  return join(state, "context-compactor", "bridge-health.json");
}
function recordHealth(change) {
  Object.assign(G.health, change, { updated: new Date().toISOString() });
  try {
    const path = healthPath();
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(`${path}.tmp`, JSON.stringify(G.health));
    renameSync(`${path}.tmp`, path);
  } catch (e) {
    log().warn(`cannot record the bridge's health for doctor: ${e?.message ?? e}`);
  }
}

// How long a request may wait for the child before it counts as hung (CONTEXT_COMPACTOR_BRIDGE_TIMEOUT_MS
// caps it, for tests).
function limitMs(ms) {
  const cap = Number(process.env.CONTEXT_COMPACTOR_BRIDGE_TIMEOUT_MS);
  return cap > 0 ? Math.min(ms, cap) : ms;
}

function log() {
  const l = G.api?.logger;
  return {
    info: (m) => (l?.info ?? console.log).call(l, `[${ID}] ${m}`),
    warn: (m) => (l?.warn ?? console.warn).call(l, `[${ID}] ${m}`),
  };
}

function warn(message) {
  G.warning = message;
  log().warn(`${message}; the history is sent unchanged`);
}

function python() {
  if (process.env.CONTEXT_COMPACTOR_PYTHON) return process.env.CONTEXT_COMPACTOR_PYTHON;
  try {
    const marker = JSON.parse(readFileSync(fileURLToPath(new URL("./.context-compactor.json", import.meta.url)), "utf8"));
    if (typeof marker.python === "string" && marker.python) return marker.python;
  } catch {}
  return "python3";
}

function pluginConfig() {
  const cfg = G.api?.pluginConfig;
  return cfg && typeof cfg === "object" ? cfg : {};
}

function seconds(name, fallback) {
  const v = pluginConfig()[name];
  return typeof v === "number" && v > 0 ? v : fallback;
}

function defaultModel() {
  const m = G.api?.config?.agents?.defaults?.model;
  return typeof m === "string" ? m : typeof m?.primary === "string" ? m.primary : null;
}

function configureParams() {
  return { config: pluginConfig(), llm: typeof G.api?.runtime?.llm?.complete === "function", model: defaultModel() };
}

// Whether `value` nests deeper than `limit` (a loop, not recursion: any depth is safe to ask about).
function tooDeep(value, limit) {
  const stack = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

// A copy of `value` in which whatever sits `limit` levels down is replaced by its JSON text.
function bounded(value, limit, depth = 0) {
  if (value === null || typeof value !== "object" || typeof value.toJSON === "function") return value;
  if (depth >= limit) {
    try {
      return JSON.stringify(value) ?? null;
    } catch {
      return "[not serialisable]";
    }
  }
  if (Array.isArray(value)) return value.map((v) => bounded(v, limit, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bounded(v, limit, depth + 1)]));
}

// Write one line to the child; throws when it cannot be written (the request then fails at once).
function send(obj) {
  if (!G.child) throw new Error("the Python bridge is not running");
  G.child.stdin.write(JSON.stringify(tooDeep(obj, MAX_DEPTH) ? bounded(obj, MAX_DEPTH) : obj) + "\n");
}

function trySend(obj) {
  try {
    send(obj);
  } catch (e) {
    log().warn(`cannot write to the Python bridge: ${e?.message}`);
  }
}

async function answerCall(msg) {
  // The bridge asks for a summary from the session model, while it serves request msg.for. The call
  // must run in that request's async context: OpenClaw scopes its work per turn, and the context of
  // the child's stdout is the turn that started the child, long closed.
  const within = G.pending.get(msg.for)?.within ?? [...G.pending.values()].at(-1)?.within ?? ((f) => f());
  try {
    if (msg.method !== "llm.complete" || typeof G.api?.runtime?.llm?.complete !== "function") {
      throw new Error(`${msg.method} is not available here`);
    }
    const p = msg.params ?? {};
    const llm = G.api.runtime.llm;
    const r = await within(() => llm.complete({
      messages: p.messages, systemPrompt: p.systemPrompt, maxTokens: p.maxTokens, purpose: p.purpose,
    }));
    trySend({ reply: msg.call, result: { text: r?.text ?? "", usage: r?.usage ?? null } });
  } catch (e) {
    trySend({ reply: msg.call, error: { message: String(e?.message ?? e) } });
  }
}

function onLine(line) {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    log().warn(`unreadable line from the Python bridge: ${line.slice(0, 200)}`);
    return;
  }
  if (msg && msg.call !== undefined) return void answerCall(msg);
  const waiter = G.pending.get(msg?.id);
  if (!waiter) return; // an answer that came after its timeout
  G.pending.delete(msg.id);
  clearTimeout(waiter.timer);
  if (msg.error) return void waiter.reject(new Error(msg.error.message ?? "bridge error"));
  if (waiter.method !== "configure") G.deaths = 0; // this child serves turns: the next death pauses 1 s again
  waiter.resolve(msg.result);
}

function failPending(reason) {
  for (const [id, waiter] of G.pending) {
    clearTimeout(waiter.timer);
    waiter.reject(new Error(reason));
    G.pending.delete(id);
  }
}

function start() {
  G.starts += 1;
  const restart = G.starts > 1;
  const exe = python();
  const child = spawn(exe, ["-m", "context_compactor.bridge"], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, PYTHONIOENCODING: "utf-8" },
  });
  G.child = child;
  child.stdin.on("error", () => {}); // EPIPE when the child died: handled by "exit"
  createInterface({ input: child.stdout }).on("line", onLine);
  createInterface({ input: child.stderr }).on("line", (line) => log().info(line));
  const gone = (why) => {
    if (G.child !== child) return;
    G.child = null;
    G.configJson = null;
    failPending(`the Python bridge stopped (${why})`);
    G.deaths += 1;
    const pause = backoffMs(G.deaths);
    G.retryAt = Date.now() + pause;
    G.lastDeath = `the Python bridge (${exe} -m context_compactor.bridge) stopped (${why})`;
    recordHealth({ crashes: G.health.crashes + 1, lastCrash: { at: new Date().toISOString(), why, pid: child.pid ?? null } });
    warn(`${G.lastDeath}; ${G.deaths} time(s) in a row; it is started again on a call after ${pause / 1000} s ` +
      "(run `context-compactor doctor` if this repeats)");
  };
  child.on("error", (e) => gone(e?.code === "ENOENT" ? `no interpreter at ${exe}` : String(e?.message ?? e)));
  child.on("exit", (code, signal) => gone(signal ? `signal ${signal}` : `exit code ${code}`));
  child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr]) s?.unref?.();
  if (!G.exitHooked) {
    G.exitHooked = true;
    process.once("exit", () => G.child?.kill());
  }
  log().info(`started the Python bridge: ${exe} -m context_compactor.bridge (pid ${child.pid})`);
  recordHealth({ starts: G.starts, restarts: G.health.restarts + (restart ? 1 : 0), pid: child.pid ?? null });
}

// A child that did not answer `method` within its limit: killed by its PID, every request waiting on it
// fails now, and the next call starts a new child at once (a hang is not a crash loop: no pause).
function hung(method, timeoutMs) {
  const child = G.child;
  if (!child) return;
  G.child = null;
  G.configJson = null;
  G.retryAt = 0;
  const why = `no answer to ${method} within ${timeoutMs / 1000} s`;
  try {
    process.kill(child.pid, "SIGKILL");
  } catch {}
  failPending(`the Python bridge (pid ${child.pid}) was killed: ${why}`);
  recordHealth({ hangs: G.health.hangs + 1, lastHang: { at: new Date().toISOString(), method, seconds: timeoutMs / 1000, pid: child.pid ?? null } });
  warn(`the Python bridge (pid ${child.pid}) gave ${why}: killed it; a new one is started on the next call ` +
    "(run `context-compactor doctor` if this repeats)");
}

function rawRequest(method, params, limit) {
  const timeoutMs = limitMs(limit);
  const child = G.child;
  return new Promise((resolve, reject) => {
    const id = G.nextId++;
    const timer = setTimeout(() => {
      G.pending.delete(id);
      reject(new Error(`${method}: no answer from the Python bridge within ${timeoutMs / 1000} s`));
      if (G.child === child) hung(method, timeoutMs);
    }, timeoutMs);
    const within = typeof AsyncLocalStorage.snapshot === "function" ? AsyncLocalStorage.snapshot() : null;
    G.pending.set(id, { resolve, reject, timer, within, method });
    try {
      send({ id, method, params });
    } catch (e) {
      clearTimeout(timer);
      G.pending.delete(id);
      reject(new Error(`${method}: cannot write to the Python bridge: ${e?.message ?? e}`));
    }
  });
}

// One call to the bridge: starts (or, after its pause, restarts) the child, configures it, then asks.
async function request(method, params, timeoutMs) {
  if (!G.child) {
    const wait = G.retryAt - Date.now();
    if (wait > 0) throw new Error(`${G.lastDeath}; it is started again in ${Math.ceil(wait / 1000)} s`);
    start();
  }
  const configJson = JSON.stringify(configureParams());
  if (G.configJson !== configJson) {
    G.configJson = configJson;
    const configured = await rawRequest("configure", JSON.parse(configJson), 30000).catch((e) => {
      G.configJson = null;
      throw e;
    });
    const recall = (configured?.tools ?? []).find((t) => t?.name === "recall_history") ?? configured?.recall;
    if (recall) G.recallSpec = recall;
    if (typeof configured?.summaryPrompt === "string" && configured.summaryPrompt) G.ownSummary = configured.summaryPrompt;
  }
  return rawRequest(method, params, timeoutMs);
}

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
